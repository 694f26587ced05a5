/// The media type a file is sent with, by its extension; text types say they are UTF-8, which
/// every file Rolodeck writes is.
enum ContentTypes {
    /// The media type of each known extension, in lower case.
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8",
        "md": "text/plain; charset=utf-8",
        "xml": "application/xml",
        "csv": "text/csv; charset=utf-8",
        "vcf": "text/vcard; charset=utf-8",
        "ics": "text/calendar; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/vnd.microsoft.icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "pdf": "application/pdf",
        "wasm": "application/wasm",
    ]

    /// The type for a file name; `application/octet-stream` for anything unknown.
    static func type(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            return "application/octet-stream"
        }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
