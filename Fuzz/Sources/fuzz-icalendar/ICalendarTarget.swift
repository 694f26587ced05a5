import FuzzSupport
@testable import RolodeckCore
@testable import RolodeckStore

/// A `.ics` file through the store decoder: content lines, the iCalendar parser, time zones,
/// dates and the todos' subtasks. Every diagnostic must point inside the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICalendar(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let source = SourceText(path: "store/todos/task.ics", bytes: FuzzInput.bytes(data, size))
    let decoded = StoreDecoder.decode([.iCalendar(source, collection: "Errands")])
    FuzzInput.requireLocations(decoded.diagnostics, in: source, lineEnds: .any)
    return 0
}
