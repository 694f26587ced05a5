import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// The labels of phones, emails and addresses from their `TYPE` words, and the `tel:` and
/// `mailto:` taken off their values: ASCII ones are read from the bytes, others as Characters.
@Suite struct VCardLabelTests {
    /// A property line (before its colon) → its label.
    @Test(arguments: [
        ("TEL;TYPE=CELL", "cell"),
        ("TEL;TYPE=iPhone,CELL,pref", "cell"),
        ("TEL;TYPE=iPhone", "iphone"),
        ("TEL;type=X-Mobile;type=x-", "mobile"),
        ("TEL;TYPE=\" home , Home ,HOME\"", "home"),
        ("EMAIL;TYPE=INTERNET,PREF", ""),
        ("TEL;TYPE=x-pref", ""),
        ("TEL;TYPE=\"x- home\"", " home"),
        ("TEL;TYPE=club,work,school,home", "work,home"),
        ("TEL;TYPE=club,school", "club,school"),
        ("TEL;TYPE=internets,Internet2,telephone", "internets,internet2,telephone"),
        ("TEL;TYPE=,,", ""),
        ("TEL;TYPE=Bür,WORK", "work"),
        ("TEL;TYPE=Bür,BÜR", "bür"),
        ("TEL;TYPE=X-Ärzte", "ärzte"),
        ("TEL;CELL;VOICE", "cell"),
        ("TEL;TYPE=work;TYPE=WORK,fax;type=Club", "work,fax"),
        ("TEL;TYPE=voice;TYPE=Club,CLUB", "club"),
        ("item1.TEL;TYPE=CELL", "Tennis club"),
        ("item2.TEL;TYPE=CELL", "cell"),
    ])
    func labels(_ header: String, _ expected: String) throws {
        var reader = ContentLineReader(source: SourceText(path: "a.vcf", text: header + ":1\r\n"))
        let next = reader.next()
        let line = try #require(next)
        #expect(VCardLabel.label(of: line, customLabels: ["item1": "Tennis club"]) == expected)
    }

    /// A `TEL` and an `EMAIL` value → the phone and email read from them.
    @Test(arguments: [
        ("tel:+1 555", "mailto:a@b.example", "+1 555", "a@b.example"),
        ("TEL: +1 555", "MailTo:  a@b.example ", "+1 555", "a@b.example"),
        ("tel:", "mailto:", "", ""),
        ("tel: ", "mailto:\t", "", ""),
        ("tele:1", "mail:a@b", "tele:1", "mail:a@b"),
        ("+1 tel:2", "a@b mailto:c", "+1 tel:2", "a@b mailto:c"),
        ("tel:\u{301}1", "mailto:\u{301}a", "tel:\u{301}1", "mailto:\u{301}a"),
        ("tel:é", "mailto:日本", "é", "日本"),
        ("te\u{212A}:1", "ma\u{130}lto:a", "te\u{212A}:1", "ma\u{130}lto:a"),
    ])
    func schemesAreTakenOff(_ tel: String, _ email: String, _ phone: String, _ address: String) {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nTEL:\(tel)\r\nEMAIL:\(email)\r\nEND:VCARD\r\n"
        let (store, _) = StoreDecoder.decode([.vCard(SourceText(path: "c.vcf", text: text))])
        #expect(store.contacts.first?.phones.map(\.value) == (phone.isEmpty ? [] : [phone]))
        #expect(store.contacts.first?.emails.map(\.value) == (address.isEmpty ? [] : [address]))
    }
}
