import Testing
@testable import RolodeckCore

/// The store's values compare their text byte for byte: Swift's `==` takes canonically
/// equivalent strings ("ü" as one scalar, and as "u" with a combining diaeresis) for the same,
/// but the pages written from them are not the same bytes, and a watch that took a name saved
/// again in the other form for unchanged left the old bytes on every page that shows it.
@Suite("Text compared byte for byte")
struct SameBytesTests {
    static let composed = "J\u{00FC}rgen M\u{00FC}ller"
    static let decomposed = "Ju\u{0308}rgen Mu\u{0308}ller"

    @Test func stringsAlikeButForTheirNormalFormHaveOtherBytes() {
        #expect(Self.composed == Self.decomposed)
        #expect(!Self.composed.hasSameBytes(as: Self.decomposed))
        #expect(Self.composed.hasSameBytes(as: "J\u{00FC}rgen" + " M\u{00FC}ller"))
        // Small strings (in the value itself), large ones, and one a byte longer.
        #expect("".hasSameBytes(as: ""))
        #expect(!"a".hasSameBytes(as: ""))
        let long = String(repeating: "가나다", count: 40)
        #expect(long.hasSameBytes(as: String(repeating: "가나다", count: 40)))
        #expect(!long.hasSameBytes(as: long + " "))
        #expect(!(long + "a").hasSameBytes(as: long + "b"))
        #expect(Optional<String>.none.hasSameBytes(as: nil))
        #expect(!Optional(Self.composed).hasSameBytes(as: Self.decomposed))
        #expect(!Optional(Self.composed).hasSameBytes(as: nil))
        #expect(![Self.composed].hasSameBytes(as: [Self.decomposed]))
        #expect(![Self.composed].hasSameBytes(as: [Self.composed, Self.composed]))
    }

    @Test func contactsWithATextInAnotherNormalFormDiffer() {
        // Every text field of a contact, each written one way and then the other.
        let texts: [WritableKeyPath<Contact, String>] = [
            \.id, \.salutation, \.givenName, \.familyName, \.additionalNames, \.suffix, \.nickname,
            \.phoneticGivenName, \.phoneticFamilyName, \.sortGivenName, \.sortFamilyName, \.organization,
            \.title, \.notes,
        ]
        // The class too, which says whether the contact is published.
        var marked = Contact(id: "a"), other = Contact(id: "a")
        marked.classification = "PRIVATE"
        #expect(marked != other)
        other.classification = "PRIVATE"
        #expect(marked == other)
        for field in texts {
            var left = Contact(id: "a"), right = Contact(id: "a")
            left[keyPath: field] = Self.composed
            right[keyPath: field] = Self.decomposed
            #expect(left != right, "\(field)")
            right[keyPath: field] = Self.composed
            #expect(left == right, "\(field)")
        }
        var left = Contact(id: "a"), right = Contact(id: "a")
        left.emails = [LabeledValue(label: "work", value: Self.composed)]
        right.emails = [LabeledValue(label: "work", value: Self.decomposed)]
        #expect(left != right)
        left.emails = []
        right.emails = []
        left.phones = [LabeledValue(label: Self.composed, value: "1")]
        right.phones = [LabeledValue(label: Self.decomposed, value: "1")]
        #expect(left != right)
        left.phones = []
        right.phones = []
        left.addresses = [PostalAddress(street: "Hauptstra\u{00DF}e 1", city: Self.composed)]
        right.addresses = [PostalAddress(street: "Hauptstra\u{00DF}e 1", city: Self.decomposed)]
        #expect(left != right)
        left.addresses = []
        right.addresses = []
        left.groupIDs = [Self.composed]
        right.groupIDs = [Self.decomposed]
        #expect(left != right)
        right.groupIDs = [Self.composed]
        #expect(left == right)
    }

    @Test func groupsTodosAndConfigsWithATextInAnotherNormalFormDiffer() {
        #expect(Group(id: "g", name: Self.composed) != Group(id: "g", name: Self.decomposed))
        let notes = Group(id: "g", name: "x", notes: Self.composed)
        #expect(notes != Group(id: "g", name: "x", notes: Self.decomposed))
        var marked = notes
        marked.classification = "PRIVATE"
        #expect(marked != notes)
        var todo = Todo(id: "t", title: Self.composed), other = Todo(id: "t", title: Self.decomposed)
        #expect(todo != other)
        other.title = Self.composed
        #expect(todo == other)
        todo.categories = [Self.composed]
        other.categories = [Self.decomposed]
        #expect(todo != other)
        other.categories = todo.categories
        todo.classification = "CONFIDENTIAL"
        #expect(todo != other)
        var config = SiteConfig(), otherConfig = SiteConfig()
        config.title = Self.composed
        otherConfig.title = Self.decomposed
        #expect(config != otherConfig)
        otherConfig.title = Self.composed
        #expect(config == otherConfig)
        otherConfig.publishPrivate = true
        #expect(config != otherConfig)
    }

    /// The `==` of these types lists their fields one by one; a field added to one of them must
    /// be added to its `==` as well, or a change of only that field would go unseen by a watch.
    @Test func everyStoredFieldIsCompared() {
        func fields(_ value: Any) -> Int { Mirror(reflecting: value).children.count }
        let expected: [(String, Int, Int)] = [
            ("Contact.Fields", fields(Contact(id: "a").box.fields), 24),
            ("LabeledValue", fields(LabeledValue(label: "", value: "")), 2),
            ("PostalAddress", fields(PostalAddress()), 6),
            ("Group", fields(Group(id: "", name: "")), 4),
            ("Todo", fields(Todo(id: "", title: "")), 11),
            ("SiteConfig", fields(SiteConfig()), 17),
        ]
        for (name, count, compared) in expected {
            #expect(count == compared, "\(name) has \(count) stored fields; its == compares \(compared)")
        }
    }
}
