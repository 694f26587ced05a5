import Synchronization
import RolodeckCore
import RolodeckStore

/// The files a site writes for its contacts' photos, each photo once however many contacts
/// have it: the photo without its metadata, `photos/<digest>.<ext>`, and a square thumbnail for
/// lists, `photos/<digest>-96.webp`. The names come from the bytes read (their SHA-256), so a
/// changed photo gets a new name and no cache shows the old face.
public struct SitePhotos: Sendable {
    /// What is written for one photo.
    public struct Files: Sendable {
        /// Where the bytes of `path` come from.
        enum Source: Sendable {
            /// The photo as read, which has no metadata to take out.
            case asRead(ContactPhoto)
            /// The photo as read, with its metadata taken out each time its bytes are asked
            /// for: a scan of its segments and a copy, cheap beside holding a second copy of
            /// every photo for the whole build (313 MB for 10,000 phone-sized photos).
            case withoutMetadata(ContactPhoto)
            /// Bytes made for it (a turned JPEG made upright), or read back from the output.
            case made([UInt8])
        }

        /// `photos/<digest>.<ext>`: the photo as read, without metadata.
        public var path: String
        /// Where its bytes come from.
        var source: Source
        /// Its bytes.
        public var bytes: [UInt8] {
            switch source {
            case .asRead(let photo): return photo.data.bytes
            case .withoutMetadata(let photo):
                // Only a photo that strips to bytes is kept this way (a turned one is made
                // upright), and stripping gives the same bytes every time. Were it ever asked
                // of another, nothing is written rather than the metadata.
                let stripped = PhotoMetadata.stripped(photo.data.bytes, format: photo.format)
                guard case .bytes(let bytes) = stripped else { return [] }
                return bytes
            case .made(let bytes): return bytes
            }
        }
        /// `photos/<digest>-96.webp`: the thumbnail.
        public var thumbnailPath: String
        /// Its bytes.
        public var thumbnailBytes: [UInt8]
        /// The width of the photo written, in pixels.
        public var width: Int
        /// Its height.
        public var height: Int
    }

    /// The side of a thumbnail in pixels: twice the largest avatar a list shows (48 CSS pixels),
    /// so it is sharp on a high-density screen.
    public static let thumbnailSize = 96

    /// The files of each photo, by the photo's digest.
    public private(set) var files: [String: Files] = [:]

    /// No photos.
    public init() {}

    /// What, besides Rolodeck's own code, decides the bytes of the files made for a photo: the
    /// version of libvips and the files of the libraries it brought in. Loads libvips if no
    /// photo has yet: ask only for a site with photos. Nil when libvips cannot be loaded.
    public static var libraries: [UInt8]? { PhotoImages.libraries }

    /// How long a digest names a photo by: 80 bits, more than enough to tell apart every photo
    /// a directory will ever have, and a name short enough to read.
    static let nameLength = 20

    /// The name (without extension) a photo is written under.
    static func name(of photo: ContactPhoto) -> String {
        String(photo.digest.prefix(nameLength))
    }

    /// The files for every photo among `contacts`, made on every core (those `cache` holds are
    /// taken from it); a photo libvips cannot read is taken from the contacts that have it and
    /// reported, and they are shown with their monograms. libvips is loaded by `library` only
    /// when there is a photo; when it cannot be, that is one error.
    static func make(
        for contacts: inout [Contact], cache: PhotoCache?,
        library: () -> Result<Void, PhotoImages.Failure> = { PhotoImages.library }
    ) -> (SitePhotos, [Diagnostic]) {
        var unique: [String: ContactPhoto] = [:]
        for contact in contacts {
            if let photo = contact.photo, unique[photo.digest] == nil { unique[photo.digest] = photo }
        }
        guard !unique.isEmpty else {
            cache?.keepOnly([])
            return (SitePhotos(), [])
        }
        if case .failure(let failure) = library() {
            return (SitePhotos(), [Diagnostic(.error, at: nil, failure.message)])
        }
        let photos = unique.keys.sorted().map { unique[$0]! }
        let published = cache.map { cache in { @Sendable path in cache.publishedBytes(path) } }
        let made = ParallelWork.map(photos.count, batch: 4) { index -> Result<Files, PhotoImages.Failure> in
            if let kept = cache?.files(photos[index].digest) { return .success(kept) }
            let made = Self.files(for: photos[index], published: published)
            if case .success(let files) = made { cache?.keep(files, for: photos[index].digest) }
            return made
        }
        var site = SitePhotos()
        var failed: [String: String] = [:]
        for (photo, result) in zip(photos, made) {
            switch result {
            case .success(let files): site.files[photo.digest] = files
            case .failure(let failure): failed[photo.digest] = failure.message
            }
        }
        cache?.keepOnly(Set(site.files.keys))
        var diagnostics: [Diagnostic] = []
        if !failed.isEmpty {
            for index in contacts.indices {
                guard let digest = contacts[index].photo?.digest, let message = failed[digest] else { continue }
                diagnostics.append(
                    Diagnostic(
                        .warning, at: nil,
                        "the photo of contact \"\(contacts[index].id)\" cannot be read: \(message); "
                            + "the contact is shown without a photo"))
                contacts[index].photo = nil
            }
        }
        return (site, diagnostics)
    }

    /// The files of one photo: its bytes without metadata, and its thumbnail. What libvips
    /// would make is taken from `published` (a file's bytes by its path in the output) when it
    /// has them.
    static func files(
        for photo: ContactPhoto, published: (@Sendable (String) -> [UInt8]?)? = nil
    ) -> Result<Files, PhotoImages.Failure> {
        let name = "photos/" + Self.name(of: photo)
        let thumbnailPath = name + "-\(thumbnailSize).webp"
        let thumbnail: [UInt8]
        // Square and never enlarged: a photo smaller than the thumbnail gives one its shorter
        // side across.
        let side = min(thumbnailSize, photo.width, photo.height)
        if let bytes = published?(thumbnailPath) {
            thumbnail = bytes
        } else {
            switch PhotoImages.thumbnail(photo.data.bytes, size: side) {
            // libvips is told to write no metadata; the bytes are stripped all the same.
            case .success(let bytes): thumbnail = PhotoMetadata.strippedWebP(bytes)
            case .failure(let failure): return .failure(failure)
            }
        }
        let path = name + "." + photo.format.fileExtension
        let full: Files.Source
        var (width, height) = (photo.width, photo.height)
        switch PhotoMetadata.stripped(photo.data.bytes, format: photo.format) {
        case .bytes(let bytes):
            // Stripping only takes out: the same count is the photo as read.
            full = bytes.count == photo.data.bytes.count ? .asRead(photo) : .withoutMetadata(photo)
        case .turned(let orientation):
            if let bytes = published?(path) {
                full = .made(bytes)
            } else {
                switch PhotoImages.uprightJPEG(photo.data.bytes) {
                case .success(let bytes): full = .made(bytes)
                case .failure(let failure): return .failure(failure)
                }
            }
            // Orientations 5 to 8 turn the picture a quarter: its sides swap.
            if orientation >= 5 { (width, height) = (height, width) }
        }
        return .success(
            Files(
                path: path, source: full, thumbnailPath: thumbnailPath, thumbnailBytes: thumbnail,
                width: width, height: height))
    }
}

/// The photo files made by the last build of a watched site, by digest, so a rebuild makes
/// them again only for photos that are new; and the output whose photo files a build may take
/// instead of making them (`readPublished`).
public final class PhotoCache: Sendable {
    private let state = Mutex<[String: SitePhotos.Files]>([:])

    /// An output whose photo files are read back rather than made (`readPublished`), with the
    /// check that they were made as this build makes them, and its answer once asked.
    private struct Published {
        var outputPath: String
        var isMadeTheSameWay: @Sendable () -> Bool
        var answer: Bool?
    }

    private let published = Mutex<Published?>(nil)

    /// An empty cache.
    public init() {}

    /// Until `stopReadingPublished`, a photo the cache does not hold has its thumbnail (and
    /// its upright copy) read from the output at `outputPath` instead of made by libvips, when
    /// `isMadeTheSameWay` says the output's photo files were made by this very rolodeck with
    /// the same libraries, and are as it wrote them (it is asked once, the first time a photo
    /// needs it): the files are then what libvips would make again, named by the photo's
    /// digest. Without it, a build after any change made every thumbnail again (23 s for 10,000
    /// photos).
    public func readPublished(from outputPath: String, if isMadeTheSameWay: @escaping @Sendable () -> Bool) {
        let source = Published(outputPath: outputPath, isMadeTheSameWay: isMadeTheSameWay)
        published.withLock { $0 = source }
    }

    /// Makes every photo's files anew again.
    public func stopReadingPublished() {
        published.withLock { $0 = nil }
    }

    /// The bytes of the file at `path` in the output `readPublished` named, when its photo
    /// files were made the same way; nil otherwise, or when the file cannot be read.
    func publishedBytes(_ path: String) -> [UInt8]? {
        let outputPath = published.withLock { published -> String? in
            guard var current = published else { return nil }
            if current.answer == nil {
                current.answer = current.isMadeTheSameWay()
                published = current
            }
            return current.answer == true ? current.outputPath : nil
        }
        return outputPath.flatMap { SiteReader.bytes(ofFileAt: $0 + "/" + path) }
    }

    func files(_ digest: String) -> SitePhotos.Files? {
        state.withLock { $0[digest] }
    }

    func keep(_ files: SitePhotos.Files, for digest: String) {
        state.withLock { $0[digest] = files }
    }

    /// Forgets the photos no contact has any more.
    func keepOnly(_ digests: Set<String>) {
        state.withLock { $0 = $0.filter { digests.contains($0.key) } }
    }
}
