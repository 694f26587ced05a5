import RolodeckCore

/// The ids of vCard and iCalendar records: their UIDs, or ids made from their names.
extension StoreDecoder {
    /// How a claim of a UID went.
    enum Claim<Record> {
        /// The UID is the record's id.
        case taken
        /// An earlier record of these files, `first`, has the UID; the record is skipped, and
        /// the caller says so.
        case repeated(first: Record)
        /// A JSON record has the UID as its id, which is reported as an error; the record is
        /// skipped.
        case json
    }

    /// Takes `uid` as the id of the vCard or iCalendar `record`, or says why not (the record is
    /// then skipped): a UID an earlier record of these files `claimed` is the warning the caller
    /// makes of that record (by what it gave as `record`: where it is, or which it is), and a
    /// UID a JSON record has as its id is an error, as any duplicate id in the JSON store is.
    mutating func claim<Record>(
        _ uid: Located<String>, of kind: RecordKind, as record: Record, claimed: inout [String: Record]
    ) -> Claim<Record> {
        // Each table is looked up and written in one step (a UID is new nearly always), and
        // put back as it was in the rare case it is not: 100,000 cards hashed their UIDs four
        // times each, in tables too large for the cache.
        if let first = claimed.updateValue(record, forKey: uid.value) {
            claimed[uid.value] = first
            return .repeated(first: first)
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
            diagnostics.append(Diagnostic(.error, at: uid.location, issue.message).mentioning(json.location))
            return .json
        }
        return .taken
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
        var candidates = IDCandidates(base, fallback: fallback)
        var candidate = candidates.next()
        while isTaken(candidate) { candidate = candidates.next() }
        return candidate
    }

    /// Takes in `ids`, for `mark`, the id `uniqueID` gives `base` (records given ids from their
    /// names one after another, in order). `untried` is the caller's across those calls: for
    /// each name given to more than one record, the number of its first id not known to be
    /// taken (ids are only added, so the ones before it stay taken). Without it, the k-th record
    /// of a name tried k ids: a phone's export of 100,000 contacts has 4,700 names, so two
    /// million lookups, on one core. A free id is hashed once, as most are (a name that is not
    /// ASCII is put in normal form to be hashed).
    static func takeID(
        _ base: String, fallback: String, for mark: Mark, in ids: inout [String: Mark],
        untried: inout [String: Int]
    ) -> (id: String, stem: String) {
        var candidates = IDCandidates(base, fallback: fallback)
        if let number = untried[candidates.stem] { candidates.number = number }
        var id = candidates.next()
        while let taken = ids.updateValue(mark, forKey: id) {
            ids[id] = taken
            id = candidates.next()
        }
        if candidates.number > 2 { untried[candidates.stem] = candidates.number }
        return (id, candidates.stem)
    }

    /// The ids `uniqueID` tries for a name, in order: the name trimmed (or the fallback, for a
    /// blank one), then the same with 2, 3 … after a space.
    struct IDCandidates {
        /// The name trimmed, or the fallback.
        let stem: String
        /// The number of the candidate `next` gives: 1 for the stem itself, then 2, 3 ….
        var number = 1

        init(_ base: String, fallback: String) {
            let trimmed = base.trimmingWhitespace
            stem = trimmed.isEmpty ? fallback : trimmed
        }

        /// The candidates of a stem as `init` made it.
        init(stem: String) {
            self.stem = stem
        }

        /// The stem whose candidate numbered 2 or more `id` is ("Anna 3" → "Anna"); nil for an
        /// id that does not end in a space and such a number, as `next` writes it.
        static func numberedStem(of id: String) -> Substring? {
            guard let space = id.lastIndex(of: " "), space > id.startIndex else { return nil }
            let digits = id[id.index(after: space)...]
            guard let first = digits.first, first != "0", digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(digits), number >= 2
            else { return nil }
            return id[..<space]
        }

        mutating func next() -> String {
            defer { number += 1 }
            return number == 1 ? stem : "\(stem) \(number)"
        }
    }
}
