import RolodeckTestSupport
import Testing
@testable import RolodeckStore

/// Splitting an edited list again only where its bytes changed must find exactly the elements a
/// split of the whole document finds, whatever the edit: inside an element, between two, across
/// several, at either end, or one that breaks the document.
@Suite struct JSONArraySplitterPatchTests {
    static let list = """
        [
          {"id": "a", "givenName": "Ann", "notes": "a, b] c"},
          {"id": "b", "phones": ["+1 555", "x\\"]"], "nested": {"k": [1, 2, {"z": null}]}},
          {"id": "c", "givenName": "Cy"},
          {"id": "d", "givenName": "Dee"},
          {"id": "e", "givenName": "Eve"}
        ]

        """

    struct Edit: Sendable, CustomTestStringConvertible {
        var label: String
        var from: String
        var to: String
        var testDescription: String { label }
    }

    static let edits: [Edit] = [
        Edit(label: "a value of the same length", from: "Cy", to: "Cz"),
        Edit(label: "a value made longer", from: "Dee", to: "Deirdre"),
        Edit(label: "a value made shorter", from: "Ann", to: "A"),
        Edit(label: "inside a string with a bracket and a comma", from: "a, b] c", to: "a, b], c,"),
        Edit(label: "an escaped quote", from: #"x\"]"#, to: #"x\", y"#),
        Edit(label: "an element inserted", from: #"{"id": "c""#, to: #"{"id": "bb"},\#n  {"id": "c""#),
        Edit(label: "an element removed", from: #"  {"id": "c", "givenName": "Cy"},\#n"#, to: ""),
        Edit(label: "the comma after an element", from: #""Cy"},"#, to: #""Cy"} ,"#),
        Edit(
            label: "whitespace between elements", from: "},\n  {\"id\": \"d\"", to: "},\n\n\n  {\"id\": \"d\""
        ),
        Edit(label: "the first element", from: "Ann", to: "Anna"),
        Edit(label: "the last element", from: "Eve", to: "Evelyn"),
        Edit(label: "an element appended", from: "\"Eve\"}\n", to: "\"Eve\"},\n  {\"id\": \"f\"}\n"),
        Edit(label: "two elements apart", from: "\"Ann\"", to: "\"Anne\""),
        Edit(label: "a string left open: no split", from: #""Dee"}"#, to: #""Dee}"#),
        Edit(
            label: "a comma missing: two elements run into one, for the parser to report", from: #""Cy"},"#,
            to: #""Cy"}"#),
        Edit(label: "text after the closing bracket: no split", from: "]\n", to: "] x\n"),
        Edit(label: "the closing bracket removed: no split", from: "]\n", to: "\n"),
    ]

    static func split(_ old: String, _ new: String) -> (patched: [Range<Int>]?, whole: [Range<Int>]?) {
        let oldBytes = Array(old.utf8), newBytes = Array(new.utf8)
        let oldElements = JSONArraySplitter.elements(of: oldBytes)!
        return (
            JSONArraySplitter.elements(of: newBytes, patching: oldBytes, elements: oldElements),
            JSONArraySplitter.elements(of: newBytes)
        )
    }

    @Test(arguments: edits)
    func anEditedListSplitsAsAWholeSplitDoes(_ edit: Edit) {
        #expect(Self.list.contains(edit.from))
        let edited = Self.list.replacingOccurrences(of: edit.from, with: edit.to)
        let (patched, whole) = Self.split(Self.list, edited)
        #expect(patched == whole)
        if edit.label.hasSuffix("no split") {
            #expect(whole == nil)
        } else {
            #expect(whole != nil)
        }
    }

    /// Edits of random bytes at random places, two of them each time, some of which leave a
    /// list and some of which do not (seeded, so that a failure is the same every time).
    @Test func randomEditsSplitAsAWholeSplitDoes() {
        var generator = SeededGenerator(seed: 17)
        let alphabet = Array(#"{}[]",\ a1:"#.utf8)
        let base = Array(Self.list.utf8)
        var differing = 0
        for round in 0..<2000 {
            var bytes = base
            for _ in 0..<2 {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                let removed = Int.random(in: 0...3, using: &generator)
                let inserted = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }
                bytes.replaceSubrange(at..<min(bytes.count, at + removed), with: inserted)
            }
            let oldElements = JSONArraySplitter.elements(of: base)!
            let patched = JSONArraySplitter.elements(of: bytes, patching: base, elements: oldElements)
            let whole = JSONArraySplitter.elements(of: bytes)
            #expect(patched == whole, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
            if whole != nil, whole != oldElements { differing += 1 }
        }
        // Enough of the edits leave a list whose elements moved or changed for the test to mean it.
        #expect(differing > 200)
    }
}
