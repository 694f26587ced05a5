import FuzzSupport
@testable import RolodeckCore
@testable import RolodeckStore

/// A `.vcf` file through the store decoder: content lines, the vCard parser, its fields, and
/// the merge of cards into contacts and groups. Every diagnostic must point inside the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVCard(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let source = SourceText(path: "store/contacts/card.vcf", bytes: FuzzInput.bytes(data, size))
    let decoded = StoreDecoder.decode([.vCard(source, collection: "Friends")])
    FuzzInput.requireLocations(decoded.diagnostics, in: source, lineEnds: .any)
    return 0
}
