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
        // Each table is looked up and written in one step (a UID is new nearly always), and
        // put back as it was in the rare case it is not: 100,000 cards hashed their UIDs four
        // times each, in tables too large for the cache.
        if let first = claimed.updateValue(location, forKey: uid.value) {
            claimed[uid.value] = first
            diagnostics.append(repeated(first))
            return false
        }
        // Any record of these files with this UID was in `claimed`: one found here is JSON's.
        let json = withIDs(of: kind) { ids -> Mark? in
            guard let json = ids.updateValue(.location(uid.location), forKey: uid.value) else { return nil }
            ids[uid.value] = json
            return json
        }
        if let json {
            claimed[uid.value] = nil
            let issue = StoreIssue(.duplicateID(kind, id: uid.value, first: json.location))
            diagnostics.append(Diagnostic(.error, at: uid.location, issue.message))
            return false
        }
        return true
    }

    /// Calls `body` with the ids of one kind of record, by id, where they were given.
    private mutating func withIDs<Result>(of kind: RecordKind, _ body: (inout [String: Mark]) -> Result)
        -> Result
    {
        switch kind {
        case .contact: return body(&contactIDs)
        case .group: return body(&groupIDs)
        case .todo: return body(&todoIDs)
        case .salutation: return body(&salutationIDs)
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
