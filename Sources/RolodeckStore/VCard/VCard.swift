import RolodeckCore

/// A vCard as read from a file: its version and its properties, not yet interpreted.
struct VCard: Sendable {
    /// The vCard versions, which differ in how lines fold and whether commas separate lists.
    enum Version: String, Sendable {
        case v21 = "2.1", v30 = "3.0", v40 = "4.0"
    }

    /// The version the card is read as (repaired when missing or unknown).
    var version: Version
    /// The properties in the order written; `BEGIN`, `END` and `VERSION` are not among them.
    var properties: [ContentLine]
    /// Where `BEGIN:VCARD` is.
    var location: SourceLocation
}

/// A value with the place it was written, for messages that point at it.
struct Located<Value: Sendable>: Sendable {
    /// The value.
    var value: Value
    /// Where it was written.
    var location: SourceLocation
}

extension Located: Equatable where Value: Equatable {}
