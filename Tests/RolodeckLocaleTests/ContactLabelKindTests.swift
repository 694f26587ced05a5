import Testing
@testable import RolodeckLocale

@Suite("Contact label kinds")
struct ContactLabelKindTests {
    /// Labels the fast path answers, and near misses it must leave to `key(for:)`'s parsing.
    static let common: [(label: String, key: InterfaceKey?)] = [
        ("home", .labelHome), ("work", .labelWork), ("mobile", .labelMobile), ("cell", .labelMobile),
        ("fax", .labelFax), ("pager", .labelPager), ("main", .labelMain), ("other", .labelOther),
        ("Home", nil), ("hom", nil), ("homes", nil), ("home ", nil), ("", nil), ("fa", nil),
        ("mobilé", nil), ("work,voice", nil), ("cellular", nil), ("othe\u{0}", nil), ("home\u{0}", nil),
        ("hole", nil), ("fax\u{0}\u{0}", nil), ("pagers\u{0}\u{0}", nil), ("mobila", nil), ("fix", nil),
        ("wark", nil),
    ]

    @Test("common labels by their bytes", arguments: common)
    func commonKey(_ label: String, _ key: InterfaceKey?) {
        #expect(ContactLabelKind.commonKey(label) == key)
    }

    /// Labels as stores write them, with the key they stand for; nil for custom labels.
    static let labels: [(label: String, key: InterfaceKey?)] = [
        ("home", .labelHome), ("HOME", .labelHome), ("cell", .labelMobile), ("Cell", .labelMobile),
        ("work,voice", .labelWork), ("WORK;FAX", .labelFax), ("_$!<Other>!$_", .labelOther),
        ("pref", nil), ("Cottage", nil), ("", nil), ("homes", nil),
    ]

    @Test("keys for raw labels", arguments: labels)
    func key(_ label: String, _ key: InterfaceKey?) {
        #expect(ContactLabelKind.key(for: label) == key)
    }
}
