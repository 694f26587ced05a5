#if canImport(Glibc)
    import Glibc
#endif

/// The names a request may call the preview server by, in its `Host` field (and in the
/// authority of an absolute target): the defence against DNS rebinding.
///
/// Any web page can make the browser showing it send requests to a name its author controls;
/// when that name is then made to resolve to 127.0.0.1, the requests reach the preview, and to
/// the browser the answers come from the page's own site, so the page may read them: the whole
/// contacts directory. Such a request gives itself away by its `Host`, the author's name. So the
/// server answers only for names no outsider can point at it:
///
/// - `localhost` and the names under `.localhost`, kept for this machine (RFC 6761);
/// - IP addresses, written as addresses: they go through no DNS, so nothing can be rebound
///   (this is also how another machine reaches a server listening on 0.0.0.0);
/// - the name the server listens on (`--host`), and the names it is given (`--allow-host`).
///
/// The port is not compared: the name alone stops a rebinding, and an SSH tunnel may change the
/// port. Vite and webpack-dev-server decide the same way, and answer a name they refuse with 403.
public struct HostPolicy: Sendable, Equatable {
    /// The names allowed besides localhost and addresses: lower case, without a final dot.
    let names: Set<String>

    /// What a `Host` value amounts to.
    enum Verdict: Equatable {
        /// A name or address the server answers for.
        case allowed
        /// A well-formed name it does not answer for, as sent.
        case refused(String)
        /// Not a host (and port) at all: 400 (RFC 9112, 3.2).
        case malformed
    }

    /// The policy of a server listening on `host` (an address or a name), also answering for
    /// the names in `allowed`.
    public init(listeningOn host: String, allowing allowed: [String] = []) {
        names = Set(([host] + allowed).filter(Self.isName).map(Self.normalized))
    }

    /// Whether `text` can be given as a name to allow: a host name (letters, digits, `-`, `_`
    /// and dots) or an address, without a port. Stricter than what `judge` reads, so that a
    /// `*` or a URL is a mistake the user hears of, not a name that never matches.
    public static func isName(_ text: String) -> Bool {
        let isNameCharacter = { (byte: UInt8) -> Bool in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
        let isPlainName =
            text.utf8.contains { $0 != UInt8(ascii: ".") } && text.utf8.allSatisfy(isNameCharacter)
        return isPlainName || isBracketedAddress(Substring(text))
    }

    /// Judges a `Host` field value, or an absolute target's authority: `host` or `host:port`,
    /// where `host` is a name, an IPv4 address or an IPv6 address in brackets.
    func judge(_ value: Substring) -> Verdict {
        var host = value
        var port: Substring = ""
        if value.hasPrefix("[") {
            guard let end = value.firstIndex(of: "]") else { return .malformed }
            host = value[...end]
            let rest = value[value.index(after: end)...]
            if let colon = rest.first {
                guard colon == ":" else { return .malformed }
                port = rest.dropFirst()
            }
            return Self.isBracketedAddress(host) && Self.isPort(port) ? .allowed : .malformed
        }
        if let colon = value.firstIndex(of: ":") {
            host = value[..<colon]
            port = value[value.index(after: colon)...]
        }
        guard !host.isEmpty, host.utf8.allSatisfy(Self.isNameByte), Self.isPort(port) else {
            return .malformed
        }
        let name = Self.normalized(String(host))
        if name == "localhost" || name.hasSuffix(".localhost") || names.contains(name) || Self.isIPv4(name) {
            return .allowed
        }
        return .refused(String(host))
    }

    /// A name as it is compared: DNS names ignore case, and `localhost.` is `localhost`.
    private static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.count > 1 && lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    /// The bytes of a registered name (RFC 3986, 3.2.2: unreserved and sub-delimiters), and so
    /// of an IPv4 address; percent-escapes are left out, since no browser sends one in a host.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("-._~!$&'()*+,;=".utf8).contains(byte)
        }
    }

    /// Whether a port is empty (allowed by RFC 3986) or a number up to 65535; at most five
    /// digits are read, so no port sent can overflow.
    private static func isPort(_ port: Substring) -> Bool {
        guard port.utf8.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        return port.isEmpty || (Int(port) ?? .max) <= 65535
    }

    private static func isIPv4(_ name: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, name, &address) == 1
    }

    /// Whether `text` is `[` an IPv6 address `]`, as a URL writes one.
    private static func isBracketedAddress(_ text: Substring) -> Bool {
        guard text.hasPrefix("["), text.hasSuffix("]"), text.utf8.count > 2 else { return false }
        let inner = text.dropFirst().dropLast()
        // Only what an address is written with reaches inet_pton (never a NUL, which would end
        // the C string early and let "::1" stand for "::1\0anything").
        let hex = "0123456789abcdefABCDEF:.".utf8
        guard inner.utf8.allSatisfy({ hex.contains($0) }) else { return false }
        var address = in6_addr()
        return inet_pton(AF_INET6, String(inner), &address) == 1
    }
}
