import RolodeckCore

/// Photo files in the store's `photos/` folder, and the JSON contacts that name them.
///
/// A file is read and checked once, where the store's files are decoded (on any core, kept by
/// the decode cache); a contact names it by its path inside the store (`photos/ada.jpg`). The
/// path is checked before it is looked up: one that is absolute or has a `..` part is refused
/// as it is written, whatever it would lead to, and the reader only ever read plain files and
/// links that stay inside the store, so nothing outside it is read.
extension StoreDecoder {
    /// A photo file read and checked: the photo, or why it cannot be shown.
    typealias PhotoYield = Result<ContactPhoto, PhotoIssue.Reason>

    /// The photo in a photo file.
    static func photo(of file: StoreFile) -> PhotoYield {
        PhotoReader.photo(fromFile: file.source.bytes)
    }

    /// Gives each JSON contact that names a photo file the photo in it, or reports why not.
    mutating func resolvePhotos() {
        for (contact, written, mark) in photoReferences {
            let result: PhotoYield
            switch Self.photoPath(written) {
            case .success(let path): result = photoFiles[path] ?? .failure(.missing(written))
            case .failure(let reason): result = .failure(reason)
            }
            switch result {
            case .success(let photo): store.contacts[contact].photo = photo
            case .failure(let reason): diagnostics.append(PhotoIssue.warning(reason, at: mark.location))
            }
        }
    }

    /// A `photo` path as the store's files are known by (`photos/ada.jpg`): `.` parts and
    /// repeated slashes taken out. An absolute path or one with a `..` part leaves the store
    /// folder, or might (a link on the way could lead anywhere); one outside `photos/` names a
    /// file that is not a photo file.
    static func photoPath(_ written: String) -> Result<String, PhotoIssue.Reason> {
        let path = written.trimmingWhitespace
        guard !path.hasPrefix("/"), !path.contains("\\"), !path.utf8.contains(0) else {
            return .failure(.outsideStore(written))
        }
        let parts = path.split(separator: "/").filter { $0 != "." }
        guard !parts.contains("..") else { return .failure(.outsideStore(written)) }
        guard parts.count >= 2, parts[0] == "photos" else { return .failure(.outsidePhotosFolder(written)) }
        return .success(parts.joined(separator: "/"))
    }
}
