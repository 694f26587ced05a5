/// A contact's photo as the store gave it: the image's bytes, checked to be a JPEG, PNG, GIF or
/// WebP image, with what the pages need to know without decoding it again.
///
/// Two photos are equal when their bytes are (compared by their digest): a contact whose card
/// was saved again with the same photo has not changed, and comparing a digest costs nothing
/// next to comparing the bytes.
public struct ContactPhoto: Sendable, Hashable {
    /// The image formats a page can show, told by the first bytes of the image, never by a label
    /// or a file name.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case jpeg, png, gif, webp

        /// The file name extension a photo of this format is written with.
        public var fileExtension: String {
            switch self {
            case .jpeg: return "jpg"
            case .png: return "png"
            case .gif: return "gif"
            case .webp: return "webp"
            }
        }

        /// The media type, for `data:` URIs and vCard `TYPE` parameters.
        public var mediaType: String { "image/" + rawValue }
    }

    /// The image's bytes, shared by every copy of the contact rather than copied with it.
    public final class Bytes: Sendable {
        /// The bytes of the image as read.
        public let bytes: [UInt8]

        /// Holds `bytes`.
        public init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }
    }

    /// The image format.
    public let format: Format
    /// The SHA-256 of the bytes, in lowercase hex: the photo's name in the built site, which
    /// changes whenever the bytes do, so no cache shows an old face.
    public let digest: String
    /// The width in pixels, as the image's header gives it.
    public let width: Int
    /// The height in pixels, as the image's header gives it.
    public let height: Int
    /// The image's bytes.
    public let data: Bytes

    /// A photo of `format` and size whose bytes are `data`, with their digest.
    public init(format: Format, digest: String, width: Int, height: Int, data: Bytes) {
        self.format = format
        self.digest = digest
        self.width = width
        self.height = height
        self.data = data
    }

    /// Whether two photos have the same bytes.
    public static func == (lhs: ContactPhoto, rhs: ContactPhoto) -> Bool {
        lhs.digest == rhs.digest
    }

    /// Hashes the digest, as `==` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }
}
