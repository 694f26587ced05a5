import CVips

/// What libvips makes of a photo: a thumbnail, or an upright copy of a turned JPEG. The only
/// file that imports `CVips`.
enum PhotoImages {
    /// Whether libvips started; started once, by the first photo that needs it.
    private static let started: Bool = rolodeck_vips_start() == 0

    /// Why libvips made nothing: its own message.
    struct Failure: Error, Sendable {
        var message: String
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
        guard started else { return .failure(Failure(message: "libvips could not be started")) }
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
