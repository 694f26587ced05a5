/// The paths pages are written at: relative, `/`-separated, inside the output folder.
enum PagePath {
    /// The folder ("" for the root) and the file name of a relative, `/`-separated path; nil
    /// when the path is absolute, has an empty, `.` or `..` component, or a NUL byte. Read off
    /// the bytes: this runs once for every page.
    static func folderAndName(of path: String) -> (folder: String, name: String)? {
        let bytes = path.utf8
        var componentStart = bytes.startIndex
        var lastSlash: String.Index?
        var index = bytes.startIndex
        while true {
            let atEnd = index == bytes.endIndex
            if atEnd || bytes[index] == UInt8(ascii: "/") {
                let component = bytes[componentStart..<index]
                guard !component.isEmpty, !component.elementsEqual(".".utf8),
                    !component.elementsEqual("..".utf8)
                else { return nil }
                if atEnd { break }
                lastSlash = index
                componentStart = bytes.index(after: index)
            } else if bytes[index] == 0 {
                return nil
            }
            index = bytes.index(after: index)
        }
        guard let lastSlash else { return ("", path) }
        return (String(path[..<lastSlash]), String(path[path.index(after: lastSlash)...]))
    }
}
