import CVips

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What libvips makes of a photo: a thumbnail, or an upright copy of a turned JPEG. The only
/// file that imports `CVips`.
///
/// libvips is loaded (`dlopen`) by the first photo that needs it, not linked: it brings a
/// hundred libraries, which the dynamic loader took 20 ms to load on every start of the command,
/// and a store without photos does not need it at all.
enum PhotoImages {
    /// The library loaded: Debian's libvips42, by its soname.
    static let libraryName = "libvips.so.42"

    /// Whether libvips is loaded and started; tried once, by the first photo that needs it.
    static let library: Result<Void, Failure> = load(libraryName)

    /// Why libvips made nothing: its own message, or why it could not be loaded.
    struct Failure: Error, Sendable, Equatable {
        /// What failed, for the user.
        var message: String
        /// Whether libvips itself could not be loaded, so no photo can be made at all.
        var isLibraryMissing = false
    }

    /// Loads and starts libvips from `library` (a name the dynamic loader looks up, or a path).
    /// Called once per process with the real name (`library`); the tests call it with others.
    static func load(_ library: String) -> Result<Void, Failure> {
        let capacity = 512
        var message = [CChar](repeating: 0, count: capacity)
        guard rolodeck_vips_load(library, &message, capacity) != 0 else { return .success(()) }
        let why = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .failure(
            Failure(
                message: "photos need libvips, which could not be loaded (\(why)); "
                    + "install Debian's libvips42 package", isLibraryMissing: true))
    }

    /// What, besides Rolodeck's own code, decides the bytes libvips makes: its version, and
    /// each library loading it brought into the process (libvips, libwebp, libjpeg, lcms2, its
    /// modules) by its file's name, size and modification time, which an upgrade of its package
    /// changes. A line each, sorted; nil when libvips is not loaded.
    static let libraries: [UInt8]? = {
        guard case .success = library else { return nil }
        var lines: [String] = []
        for path in String(cString: rolodeck_vips_libraries()).split(separator: "\n") {
            let name = path.split(separator: "/").last.map(String.init) ?? String(path)
            var info = stat()
            guard stat(String(path), &info) == 0 else {
                lines.append(name + " unreadable")
                continue
            }
            lines.append("\(name) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
        }
        return Array(("libvips " + String(cString: rolodeck_vips_version()) + "\n").utf8)
            + lines.sorted().joined(separator: "\n").utf8 + [UInt8(ascii: "\n")]
    }()

    /// Whether libvips runs orc's run-time compiled vector code: never once loaded (see
    /// `rolodeck_vips_load`), as orc's code memory is not safe on several threads at once.
    static var usesVectorCode: Bool {
        guard case .success = library else { return false }
        return rolodeck_vips_vectors_enabled() != 0
    }

    /// A square WebP thumbnail `size` pixels a side, cut from the middle of the photo and
    /// turned upright, without metadata.
    static func thumbnail(_ bytes: [UInt8], size: Int) -> Result<[UInt8], Failure> {
        call { out, length in
            bytes.withUnsafeBytes { rolodeck_vips_thumbnail($0.baseAddress, $0.count, Int32(size), out, length) }
        }
    }

    /// The JPEG made upright by its EXIF orientation and written again without metadata.
    static func uprightJPEG(_ bytes: [UInt8]) -> Result<[UInt8], Failure> {
        call { out, length in
            bytes.withUnsafeBytes { rolodeck_vips_upright_jpeg($0.baseAddress, $0.count, out, length) }
        }
    }

    /// Runs a wrapper that writes a buffer, and takes the buffer's bytes (or libvips' message).
    private static func call(
        _ body: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) -> Result<[UInt8], Failure> {
        if case .failure(let failure) = library { return .failure(failure) }
        var out: UnsafeMutableRawPointer?
        var length = 0
        guard body(&out, &length) == 0, let out else {
            let message = rolodeck_vips_take_error().map { pointer in
                defer { rolodeck_vips_free(pointer) }
                return String(cString: pointer)
            } ?? ""
            let firstLine = message.split(separator: "\n").first.map(String.init) ?? "unknown error"
            return .failure(Failure(message: firstLine))
        }
        defer { rolodeck_vips_free(out) }
        return .success(Array(UnsafeRawBufferPointer(start: out, count: length)))
    }
}
