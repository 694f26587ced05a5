import Testing
@testable import RolodeckSite

/// A page cut at its stand-ins and joined with the reference is the page with the reference
/// where the stand-ins were.
@Suite struct SectionPagePartsTests {
    @Test(arguments: [
        "", "S", "aSb", "Sab", "abS", "SS", "aSbSc", "no stand-in here", "SSaSS", "~a~Sb~", "a~0123S~",
    ])
    func cutAndJoinedIsEveryStandInReplaced(_ text: String) {
        let standIn = "~0123456789abcdef"
        let page = Array(text.replacingOccurrences(of: "S", with: standIn).utf8)
        let parts = SectionPageParts.cut(page, at: Array(standIn.utf8))
        #expect(parts.count == text.filter { $0 == "S" }.count + 1)
        let joined = SectionPageParts.joined(parts, with: Array("../search/root.js?v=1x".utf8))
        #expect(joined == Array(text.replacingOccurrences(of: "S", with: "../search/root.js?v=1x").utf8))
    }

    @Test func everySetOfPartsHasItsOwnStandIn() {
        let standIns = (0..<8).map { _ in SectionPageParts().standIn }
        #expect(Set(standIns).count == standIns.count)
        #expect(
            standIns.allSatisfy {
                $0.count == 33 && $0.hasPrefix("~") && $0.dropFirst().allSatisfy(\.isHexDigit)
            })
    }
}
