/// The vCard properties Rolodeck reads, known by name.
///
/// A card's every property is looked up, most of them (`VERSION`, `PRODID`, `REV` …) to be
/// passed over: among the names of its length, it takes a comparison or two, where going down
/// the list of all names took twenty.
enum VCardProperty {
    case fn, n, nickname, phoneticFirstName, phoneticLastName, sortString, org, title, tel, email, adr, url
    case bday, note, uid, categories, kind, member, androidCustom, geo, photo, classification

    /// Each property by its names, uppercase.
    private static let names: [(name: String, property: VCardProperty)] = [
        ("FN", .fn), ("N", .n), ("NICKNAME", .nickname), ("X-PHONETIC-FIRST-NAME", .phoneticFirstName),
        ("X-PHONETIC-LAST-NAME", .phoneticLastName), ("SORT-STRING", .sortString), ("ORG", .org),
        ("TITLE", .title), ("TEL", .tel), ("EMAIL", .email), ("ADR", .adr), ("URL", .url), ("BDAY", .bday),
        ("NOTE", .note), ("UID", .uid), ("CATEGORIES", .categories), ("KIND", .kind),
        ("X-ADDRESSBOOKSERVER-KIND", .kind), ("MEMBER", .member), ("X-ADDRESSBOOKSERVER-MEMBER", .member),
        ("X-ANDROID-CUSTOM", .androidCustom), ("GEO", .geo), ("PHOTO", .photo),
        ("CLASS", .classification),
    ]

    /// `names` by the length of the name in bytes.
    private static let namesByLength: [[(name: String, property: VCardProperty)]] = {
        var byLength = Array(repeating: [(name: String, property: VCardProperty)](), count: 32)
        for entry in names { byLength[entry.name.utf8.count].append(entry) }
        return byLength
    }()

    /// The property of an uppercase name; nil for one Rolodeck passes over.
    init?(_ name: String) {
        let count = name.utf8.count
        guard count < Self.namesByLength.count,
            let entry = Self.namesByLength[count].first(where: { $0.name == name })
        else { return nil }
        self = entry.property
    }
}
