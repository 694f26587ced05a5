import RolodeckCore

/// The ids of vCard and iCalendar records: their UIDs, or ids made from their names.
extension StoreDecoder {
    /// Takes `uid` as the id of the vCard or iCalendar record at `location`, or says why not and
    /// returns false (the record is then skipped): a UID an earlier record of these files
    /// `claimed` is the warning `repeated` makes of where that record is, and a UID a JSON
    /// record has as its id is an error, as any duplicate id in the JSON store is.
    mutating func claim(
        _ uid: Located<String>, of kind: RecordKind, recordAt location: SourceLocation,
        claimed: inout [String: SourceLocation], repeated: (SourceLocation) -> Diagnostic
    ) -> Bool {
        if let first = claimed[uid.value] {
            diagnostics.append(repeated(first))
            return false
        }
        let ids = StoreDecoder.ids(of: kind)
        if let json = self[keyPath: ids][uid.value] {
            let issue = StoreIssue(.duplicateID(kind, id: uid.value, first: json.location))
            diagnostics.append(Diagnostic(.error, at: uid.location, issue.message))
            return false
        }
        claimed[uid.value] = location
        self[keyPath: ids][uid.value] = .location(uid.location)
        return true
    }

    /// Where the ids of one kind of record were given, by id.
    private static func ids(of kind: RecordKind) -> WritableKeyPath<StoreDecoder, [String: Mark]> {
        switch kind {
        case .contact: return \.contactIDs
        case .group: return \.groupIDs
        case .todo: return \.todoIDs
        case .salutation: return \.salutationIDs
        }
    }

    /// `base` (or `fallback` when it is blank), then `base 2`, `base 3` … until one is free.
    static func uniqueID(_ base: String, fallback: String, isTaken: (String) -> Bool) -> String {
        let stem = base.trimmingWhitespace.isEmpty ? fallback : base.trimmingWhitespace
        var candidate = stem
        var number = 2
        while isTaken(candidate) {
            candidate = "\(stem) \(number)"
            number += 1
        }
        return candidate
    }
}
