import RolodeckCore

/// A problem with a vCard file or one of its cards; its wording lives in one place, `message`.
/// Every one is a warning: it costs at most the line or the card it is about.
struct VCardIssue: ReaderIssue {
    /// Everything that can be wrong with a card.
    enum Reason: Sendable, Equatable {
        case textOutsideCard
        case beginInsideCard(line: Int)
        case missingEnd
        case noCards
        case unknownVersion(String)
        case invalidBirthday(String, detail: String?)
        case invalidGeo(String)
        case noName
        case groupWithoutName
        case unknownMember(group: String, member: String)
        case duplicateUID(String, first: SourceLocation)
        case duplicateGroupUID(String, first: SourceLocation)
    }

    /// What is wrong.
    var reason: Reason

    /// The message the user reads.
    var message: String {
        switch reason {
        case .textOutsideCard:
            return "text outside BEGIN:VCARD … END:VCARD is ignored"
        case .beginInsideCard(let line):
            return "BEGIN:VCARD comes before the card begun on line \(line) has ended; that card ends here"
        case .missingEnd:
            return "this card has no END:VCARD; it is read to the end of the file"
        case .noCards:
            return "this file holds no vCard (BEGIN:VCARD … END:VCARD)"
        case .unknownVersion(let version):
            return "vCard version \"\(version)\" is not 2.1, 3.0 or 4.0; the card is read as 3.0"
        case .invalidBirthday(let text, let detail):
            let why = detail.map { ": \($0)" } ?? ""
            return "BDAY \"\(text)\" is not a date\(why); the birthday is left out"
        case .invalidGeo(let text):
            return "GEO \"\(text)\" is not a latitude and longitude in degrees; the location is left out"
        case .noName:
            return "this card has no name, organization, email or phone number to show; it is skipped"
        case .groupWithoutName:
            return "this group card has no name (FN or N); it is skipped"
        case .unknownMember(let group, let member):
            return "group \"\(group)\" lists member \"\(member)\", which is not in the store; it is ignored"
        case .duplicateUID(let uid, let first):
            return "the card at \(first) has the same UID \"\(uid)\"; this card is skipped"
        case .duplicateGroupUID(let uid, let first):
            return "the group card at \(first) has the same UID \"\(uid)\"; this group card is skipped"
        }
    }
}
