import RolodeckCore

/// A problem with a contact's photo; its wording lives in one place, `message`. Every one is a
/// warning: the contact is shown with its monogram instead.
struct PhotoIssue: ReaderIssue {
    /// Everything that can be wrong with a photo; an `Error`, so that reading a photo gives a
    /// `Result` of it.
    enum Reason: Error, Sendable, Equatable {
        /// The base64 text has a character that is not base64, or ends in the wrong place.
        case invalidBase64
        /// A `data:` URI that is not base64 image data.
        case invalidDataURI
        /// The bytes are none of the formats a page can show.
        case unknownFormat
        /// The bytes start as an image of the format but end before it does.
        case truncated(ContactPhoto.Format)
        /// The header gives no size, or a size of nothing.
        case noDimensions(ContactPhoto.Format)
        /// More bytes than a photo may have.
        case tooLarge(bytes: Int)
        /// A JSON `photo` path that is absolute or climbs out with `..`.
        case outsideStore(String)
        /// A JSON `photo` path outside the store's `photos/` folder.
        case outsidePhotosFolder(String)
        /// A JSON `photo` path with no file (or a link leading out of the store) behind it.
        case missing(String)
    }

    /// What is wrong.
    var reason: Reason

    /// The greatest photo, in bytes: far more than any phone stores with a contact (they keep
    /// a few hundred kilobytes at most), small enough that a store of thousands cannot fill the
    /// memory of a build by mistake.
    static let byteLimit = 10 * 1024 * 1024

    /// The message the user reads.
    var message: String {
        let ignored = "the contact is shown without a photo"
        switch reason {
        case .invalidBase64:
            return "PHOTO is not valid base64; \(ignored)"
        case .invalidDataURI:
            return "PHOTO is a data: URI without base64 image data; \(ignored)"
        case .unknownFormat:
            return "photo is not a JPEG, PNG, GIF or WebP image; \(ignored)"
        case .truncated(let format):
            return "photo is a \(format.name) image that ends too soon (truncated); \(ignored)"
        case .noDimensions(let format):
            return "photo is a \(format.name) image without a width and height; \(ignored)"
        case .tooLarge(let bytes):
            return "photo has \(bytes) bytes, more than the limit of \(PhotoIssue.byteLimit) (10 MB); \(ignored)"
        case .outsideStore(let path):
            return "photo \"\(path)\" is not a path inside the store folder; \(ignored)"
        case .outsidePhotosFolder(let path):
            return "photo \"\(path)\" is not in the store's photos/ folder; \(ignored)"
        case .missing(let path):
            return "photo \"\(path)\" is not a file in the store's photos/ folder "
                + "(links that lead out of the store are not followed); \(ignored)"
        }
    }
}

extension ContactPhoto.Format {
    /// The format's name as messages write it.
    var name: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .gif: return "GIF"
        case .webp: return "WebP"
        }
    }
}
