/// Suggests the name a user probably meant when they wrote an unknown one (a store field,
/// a config key, a command-line option).
public enum Suggestion {
    /// Names other tools use for our fields, lowercased without `_` and `-`, each with the
    /// fields it may mean, best first: the first one the record at hand knows is suggested
    /// ("name" is a contact's `givenName` but a todo's `title`). A near-miss in spelling is
    /// found by edit distance instead.
    private static let aliases: [String: [String]] = [
        "firstname": ["givenName"], "first": ["givenName"], "forename": ["givenName"],
        "given": ["givenName"], "lastname": ["familyName"], "last": ["familyName"],
        "surname": ["familyName"], "family": ["familyName"], "middlename": ["additionalNames"],
        "middle": ["additionalNames"], "prefix": ["salutation"], "anrede": ["salutation"],
        "honorific": ["salutation"], "nick": ["nickname"], "company": ["organization"],
        "org": ["organization"], "organisation": ["organization"], "jobtitle": ["title"],
        "role": ["title"], "position": ["title"], "email": ["emails"], "mail": ["emails"],
        "emailaddress": ["emails"], "emailaddresses": ["emails"], "phone": ["phones"],
        "tel": ["phones"], "telephone": ["phones"], "phonenumber": ["phones"],
        "phonenumbers": ["phones"], "mobile": ["phones"], "cell": ["phones"],
        "address": ["addresses"], "url": ["urls"], "website": ["urls"], "homepage": ["urls"],
        "web": ["urls"], "birthdate": ["birthday"], "dob": ["birthday"], "bday": ["birthday"],
        "dateofbirth": ["birthday"], "note": ["notes"], "comment": ["notes"], "comments": ["notes"],
        "description": ["notes"], "memo": ["notes"], "group": ["groups"],
        "category": ["groups", "categories"], "tags": ["groups", "categories"],
        "zip": ["postalCode"], "zipcode": ["postalCode"], "postcode": ["postalCode"],
        "postal": ["postalCode"], "town": ["city"], "streetaddress": ["street"],
        "state": ["region"], "province": ["region"], "completed": ["done"], "duedate": ["due"],
        "summary": ["title"], "contactid": ["contact"], "parentid": ["parent"],
        "name": ["givenName", "title", "text"], "title": ["name"], "label": ["text"],
        "hidden": ["private"], "hide": ["private"], "secret": ["private"], "confidential": ["private"],
        "class": ["private"], "isprivate": ["private"], "privacy": ["private"],
    ]

    /// The known field closest to `field`, or nil when none is close enough to be a good guess.
    public static func closest(to field: String, in known: [String]) -> String? {
        let lowered = field.lowercased()
        if let alias = aliases[lowered.filter { $0 != "_" && $0 != "-" }]?.first(where: known.contains) {
            return alias
        }
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= max(1, candidate.count / 4), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Edit distance over characters where swapping two neighbours counts as one edit, the most
    /// common typo ("biuld"); the optimal-string-alignment form of Damerau–Levenshtein.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
