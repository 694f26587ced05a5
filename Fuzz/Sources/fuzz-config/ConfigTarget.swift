import FuzzSupport
@testable import RolodeckCore
@testable import RolodeckStore

/// `rolodeck.json` through the config decoder, which site reading runs on the file's bytes.
/// Every diagnostic must point inside the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let source = SourceText(path: "rolodeck.json", bytes: FuzzInput.bytes(data, size))
    let decoded = ConfigDecoder.decode(source)
    FuzzInput.requireLocations(decoded.diagnostics, in: source)
    return 0
}
