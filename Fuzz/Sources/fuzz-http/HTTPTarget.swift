import FuzzSupport
import RolodeckServe

/// A client's bytes through the preview server's request handling (`HTTPRequestFuzzing`), once
/// as `serve` runs by default and once listening on every address with a LAN name allowed.
/// Every answer must be a status the server sends.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = HTTPRequestFuzzing.testOneInput(data, size)
    let bytes = FuzzInput.bytes(data, size)
    for status in HTTPRequestFuzzing.statuses(answering: bytes, host: "0.0.0.0", allowing: ["contacts.lan"]) {
        FuzzInput.require(status == 200 || status == 304 || (400..<600).contains(status), "status \(status)")
    }
    return 0
}
