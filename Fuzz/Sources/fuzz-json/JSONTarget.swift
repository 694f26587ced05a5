import FuzzSupport
@testable import RolodeckCore
@testable import RolodeckStore

/// The JSON parser on its own, then the store decoder over the same bytes as a store file.
///
/// The parser must accept or refuse every input, a refusal pointing inside it; the decoder must
/// turn every input into records and diagnostics, each diagnostic inside the file. Which kind of
/// record and which layout the file is taken for follows from the input's length, so the
/// fuzzer reaches all eight without a byte of the input spent on choosing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    do {
        _ = try JSONParser.parse(bytes)
    } catch {
        FuzzInput.require(
            error.offset >= 0 && error.offset <= bytes.count,
            "JSON syntax error at offset \(error.offset) of \(bytes.count) bytes")
    }
    let kinds: [RecordKind] = [.contact, .group, .todo, .salutation]
    let kind = kinds[size % kinds.count]
    let layout: StoreFile.Layout = (size / kinds.count) % 2 == 0 ? .list : .single
    let source = SourceText(path: "store/\(kind.rawValue)s.json", bytes: bytes)
    let decoded = StoreDecoder.decode([StoreFile(kind: kind, layout: layout, source: source)])
    FuzzInput.requireLocations(decoded.diagnostics, in: source)
    return 0
}
