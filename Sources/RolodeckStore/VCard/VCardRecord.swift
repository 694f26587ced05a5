import RolodeckCore

/// What one vCard yields for the store: a contact or a group, with what it refers to by name or
/// UID, which the store resolves once every file is read.
struct VCardRecord: Sendable {
    /// What the card stands for.
    enum Content: Sendable {
        /// A person or an organization; its id is its UID, or still empty when it has none.
        case contact(Contact)
        /// A group card (`KIND:group` or Apple's `X-ADDRESSBOOKSERVER-KIND:group`) and its
        /// members as written (`urn:uuid:…`, a bare UID or `mailto:`); its `CLASS`, in capitals.
        case group(name: String, notes: String, classification: String?, members: [Located<String>])
    }

    /// The contact or group.
    var content: Content
    /// The UID without `urn:uuid:`, when the card has one.
    var uid: Located<String>?
    /// The name a person reads: `FN`, or what stands in for it (from `N`, `ORG`, `NICKNAME`,
    /// `EMAIL` or `TEL`); ids of cards without a UID are made from it.
    var formattedName: String
    /// Its `CATEGORIES`, each the name of a group it belongs to.
    var categories: [Located<String>]
    /// Where `BEGIN:VCARD` is.
    var location: SourceLocation
    /// `FN` as written, for comparing readings; nil unless the reader was asked to keep it.
    var writtenFN: String?
    /// The components of `N` as written (family, given, additional, prefix, suffix), each a list;
    /// nil unless the reader was asked to keep them.
    var writtenN: [[String]]?

    /// A contact card's contact, moved out (the card then holds an empty contact that every
    /// such card shares); nil for a group card. Moved, not copied, so that the contact's storage
    /// is not touched here, nor shared with the card.
    mutating func takeContact() -> Contact? {
        guard case .contact = content else { return nil }
        var taken = Content.contact(VCardRecord.takenContact)
        swap(&taken, &content)
        guard case .contact(let contact) = consume taken else { return nil }
        return contact
    }

    /// What a contact card holds once its contact has been taken.
    private static let takenContact = Contact(id: "")
}
