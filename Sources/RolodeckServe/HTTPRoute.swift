/// What the server does with a request, decided from the request alone: a pure function, so
/// that tests and a fuzzer can drive every check on request data without sockets or files.
/// Only `.file` and `.missingPage` go on to the output folder.
enum HTTPRoute: Equatable {
    /// A short plain-text answer, with a line saying why; `closes` when the connection is closed
    /// after it.
    case refusal(HTTPStatus, detail: String?, closes: Bool)
    /// The live-reload event stream.
    case events
    /// The theme's 404 page: the path names a hidden file.
    case missingPage
    /// The file that the decoded segments of the path name.
    case file([[UInt8]])

    /// The route of `request` on a server that answers for `hosts`. The host is judged first, so
    /// a page from elsewhere learns nothing else: not which paths exist, not even the methods.
    init(_ request: HTTPRequest, hosts: HostPolicy) {
        // HTTP/1.0 needs no Host, and a request without one is answered: browsers, the only way
        // a rebinding page has of reaching the server, always send it.
        var authorities = request.header("host").map { [Substring($0)] } ?? []
        if let authority = Self.authority(of: request.target) { authorities.append(authority) }
        for authority in authorities {
            switch hosts.judge(authority) {
            case .allowed:
                continue
            case .malformed:
                self = .refusal(.badRequest, detail: "The Host field is not a host name.", closes: true)
                return
            case .refused(let name):
                self = .refusal(.forbidden, detail: Self.refusedHost(name), closes: true)
                return
            }
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            self = .refusal(.methodNotAllowed, detail: nil, closes: true)
            return
        }
        if request.hasBody {
            // A body the server does not read would be taken for the next request.
            self = .refusal(
                .contentTooLarge, detail: "The preview server takes no request body.", closes: true)
            return
        }
        if request.target.prefix(while: { $0 != "?" && $0 != "#" }) == LiveReload.eventsPath {
            self = .events
            return
        }
        switch OutputFiles.segments(of: request.target) {
        case .success(let segments): self = .file(segments)
        case .failure(.notFound): self = .missingPage
        case .failure: self = .refusal(.badRequest, detail: nil, closes: false)
        }
    }

    /// The authority of an absolute-form target (`http://localhost:8000/a.html`), which counts
    /// as the request's host as much as its Host field (RFC 9112, 3.2.2); nil for a path.
    private static func authority(of target: String) -> Substring? {
        for scheme in ["http://", "https://"] where target.utf8.count >= scheme.utf8.count {
            let start = target.utf8.index(target.startIndex, offsetBy: scheme.utf8.count)
            guard target[..<start].lowercased() == scheme else { continue }
            let rest = target[start...]
            return rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        }
        return nil
    }

    /// Why a host is refused, and what to do about it.
    private static func refusedHost(_ name: String) -> String {
        "This preview answers only for localhost, IP addresses and the names it is given, so that "
            + "other web sites cannot read it through their own names (DNS rebinding). To open it as "
            + "\"\(name)\", start it with: rolodeck serve --allow-host \(name)"
    }
}
