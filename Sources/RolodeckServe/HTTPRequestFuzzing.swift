/// The preview server's handling of a client's bytes, up to the output folder, as one pure
/// function: for fuzzing, and for tests that feed it hostile requests.
///
/// It runs what the server runs on request data: the head parser with the server's size limit,
/// pipelined requests one after another, the Host check, the method and body checks, the path's
/// percent-decoding and traversal checks, and the conditional-request validators with their
/// date parser. A libFuzzer target needs no more than:
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
///     HTTPRequestFuzzing.testOneInput(data, size)
/// }
/// ```
public enum HTTPRequestFuzzing {
    /// The statuses the server answers the requests in `bytes` with, in order, as far as they
    /// can be known without the output folder: a refusal's status; 200 for the event stream;
    /// 404 for a hidden name; for a file 304 when the request's validators match a made-up
    /// file's, else 200. It stops after a response that closes the connection, and at bytes
    /// that are not a whole head yet (which get no answer until more come). `host` and
    /// `allowing` are the server's `--host` and `--allow-host`.
    public static func statuses(
        answering bytes: [UInt8], host: String = "127.0.0.1", allowing: [String] = []
    ) -> [Int] {
        let hosts = HostPolicy(listeningOn: host, allowing: allowing)
        let limit = HTTPServer.Limits().maximumHead
        var statuses: [Int] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            switch HTTPRequestParser.parse(rest, limit: limit) {
            case .incomplete:
                return statuses
            case .refused(let status):
                return statuses + [status.rawValue]
            case .request(let request, let length):
                rest = rest.dropFirst(length)
                switch HTTPRoute(request, hosts: hosts) {
                case .refusal(let status, _, let closes):
                    statuses.append(status.rawValue)
                    if closes { return statuses }
                case .events:
                    return statuses + [HTTPStatus.ok.rawValue]
                case .missingPage:
                    statuses.append(HTTPStatus.notFound.rawValue)
                case .file(let segments):
                    _ = ContentTypes.type(of: String(decoding: segments.last ?? [], as: UTF8.self))
                    let notModified = request.isNotModified(tag: "\"1-2-3\"", modified: 784_111_777)
                    statuses.append(notModified ? HTTPStatus.notModified.rawValue : HTTPStatus.ok.rawValue)
                }
                if !request.keepsAlive { return statuses }
            }
        }
        return statuses
    }

    /// libFuzzer's `LLVMFuzzerTestOneInput`: runs `statuses(answering:)` on the `size` bytes at
    /// `data`, and returns 0, as libFuzzer asks. A crash or a trap is what the fuzzer looks for.
    public static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        _ = statuses(answering: bytes)
        return 0
    }
}
