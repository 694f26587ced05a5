/// The paths pages are written at: relative, `/`-separated, inside the output folder.
enum PagePath {
    /// The folder ("" for the root) and the file name of a relative, `/`-separated path; nil
    /// when the path is absolute, has an empty, `.` or `..` component, or a NUL byte. Read off
    /// the bytes: this runs once for every page.
    static func folderAndName(of path: String) -> (folder: String, name: String)? {
        // A buffer, not the UTF-8 view, whose indices cost a call each. `withUTF8` on a copy
        // reads a native string's bytes in place and makes any other contiguous first.
        var bytes = path
        return bytes.withUTF8 { split($0, of: path) }
    }

    /// `folderAndName` of `path`, whose bytes are `bytes`.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, of path: String)
        -> (folder: String, name: String)? {
        guard let lastSlash = lastSlash(checking: bytes) else { return nil }
        guard lastSlash >= 0 else { return ("", path) }
        return (
            String(decoding: UnsafeBufferPointer(rebasing: bytes[..<lastSlash]), as: UTF8.self),
            String(decoding: UnsafeBufferPointer(rebasing: bytes[(lastSlash + 1)...]), as: UTF8.self)
        )
    }

    /// The offset of the last `/` in a path's bytes, -1 when there is none; nil when the path
    /// is not valid (see `folderAndName`).
    private static func lastSlash(checking bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var lastSlash = -1
        var componentStart = 0
        for index in 0...bytes.count {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
            if byte == UInt8(ascii: "/") {
                // Empty, `.` and `..` components: 0 bytes, or only dots and at most two.
                let length = index - componentStart
                if length == 0 { return nil }
                if length <= 2, bytes[componentStart] == UInt8(ascii: "."),
                    bytes[index - 1] == UInt8(ascii: ".")
                {
                    return nil
                }
                if index < bytes.count { lastSlash = index }
                componentStart = index + 1
            } else if byte == 0 {
                return nil
            }
        }
        return lastSlash
    }
}
