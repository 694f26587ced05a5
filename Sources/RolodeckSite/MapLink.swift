import RolodeckCore

/// The link that shows a postal address on a map, at the provider the config names
/// (`mapLinks`). A plain link: nothing is asked of the provider until someone clicks it.
enum MapLink {
    /// The provider's search for `query` (an address's lines joined by ", "), the query
    /// percent-encoded; nil for `none` or an empty query.
    static func url(for query: String, provider: SiteConfig.MapLinks) -> String? {
        guard !query.isEmpty else { return nil }
        let encoded = percentEncoded(query)
        switch provider {
        case .openstreetmap: return "https://www.openstreetmap.org/search?query=" + encoded
        case .google: return "https://www.google.com/maps/search/?api=1&query=" + encoded
        case .apple: return "https://maps.apple.com/?address=" + encoded
        case .none: return nil
        }
    }

    /// `text` with every byte of its UTF-8 but the unreserved characters of RFC 3986 (letters,
    /// digits, `-`, `.`, `_`, `~`) written as `%XX`: safe as one query value, whatever the
    /// address holds (`&`, `#`, `+`, spaces, Hangul).
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
