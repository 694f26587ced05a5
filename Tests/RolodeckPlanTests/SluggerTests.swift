import Testing
@testable import RolodeckPlan

@Suite struct SluggerTests {
    @Test(arguments: [
        ("mueller-juergen", "mueller-juergen"), ("Jürgen Müller", "juergen-mueller"), ("Straße 5", "strasse-5"),
        ("Élodie_Lefèvre", "elodie-lefevre"), ("  --x--  ", "x"), ("Ørsted", "oersted"), ("ŁÓDŹ", "lodz"),
        ("김철수", ""), ("ｆｕｌｌ", "full"), ("a/b\\c?d#e", "a-b-c-d-e"),
        // Almost slugs already: a dash at either end or twice, a capital, too long.
        ("-ab", "ab"), ("ab-", "ab"), ("a--b", "a-b"), ("kim-Anna-1", "kim-anna-1"),
        ("kim-anna-12345678901", "kim-anna-12345678901"),
        (String(repeating: "a", count: 61), String(repeating: "a", count: 60)),
    ])
    func base(_ id: String, _ expected: String) {
        #expect(Slugger.base(id) == expected)
    }

    @Test func collisionsAreResolvedTheSameWayEveryTime() {
        let ids = ["mueller", "Müller", "MUELLER", "김철수", "이영희", "plain"]
        let slugs = Slugger.slugs(for: ids)
        #expect(slugs[0] == "mueller")  // the id that is already a slug keeps it
        #expect(slugs[1].hasPrefix("mueller-") && slugs[2].hasPrefix("mueller-"))
        #expect(slugs[3].hasPrefix("id-") && slugs[4].hasPrefix("id-"))
        #expect(slugs[5] == "plain")
        #expect(Set(slugs).count == ids.count)
        #expect(slugs.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") } })
        // Order of the input and unrelated ids do not change anyone's slug.
        let shuffled = Slugger.slugs(for: ids.reversed() + ["unrelated"])
        #expect(Array(shuffled.prefix(6).reversed()) == slugs)
    }

    @Test func aHashedSlugNeverTakesAnotherIDsSlug() {
        // "Mueller" would become "mueller-" and the first 6 hex digits of its hash; an id that
        // is exactly that slug keeps it, and the hashed one is lengthened instead.
        let short = "mueller-" + String(String(Slugger.fnv1a("Mueller"), radix: 16).prefix(6))
        let slugs = Slugger.slugs(for: ["mueller", "Mueller", short])
        #expect(slugs[0] == "mueller")
        #expect(slugs[2] == short)
        #expect(slugs[1] == "mueller-" + String(String(Slugger.fnv1a("Mueller"), radix: 16).prefix(8)))
        #expect(Slugger.slugs(for: [short, "Mueller", "mueller"]) == slugs.reversed())
    }
}
