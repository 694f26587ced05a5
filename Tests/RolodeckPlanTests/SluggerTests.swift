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

    /// Ids changed a few at a time, among ids that fold alike, are their own bases, or fold to
    /// nothing: the slugs made again from the changed bases alone are those of a whole run, and
    /// most changes are made so.
    @Test func slugsRemadeFromTheChangedIDsAreThoseOfAWholeRun() {
        var state: UInt64 = 0x51ee
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func id() -> String {
            let number = next(60)
            // The last is the hash "Müller n" is given beside "mueller-n": it lengthens that.
            let hash = String(Slugger.fnv1a("Müller \(number % 3)"), radix: 16)
            let taken = "mueller-\(number % 3)-" + String(hash.prefix(6))
            let ids = [
                "m\(number)", "M\(number)", "Müller \(number % 3)", "mueller-\(number % 3)", "김 \(number)",
                "x", taken,
            ]
            return ids[next(ids.count)]
        }
        var ids: [String] = []
        while ids.count < 100 {
            let candidate = id()
            if !ids.contains(candidate) { ids.append(candidate) }
        }
        var made = Slugger.made(for: ids)
        var remadeCount = 0
        var lengthenedRounds = 0
        for round in 0..<200 {
            var changed: [(position: Int, id: String)] = []
            var newIDs = ids
            for _ in 0..<(1 + next(3)) {
                let candidate = id()
                let position = next(ids.count)
                guard !newIDs.contains(candidate), !changed.contains(where: { $0.position == position })
                else { continue }
                newIDs[position] = candidate
                changed.append((position, candidate))
            }
            let whole = Slugger.made(for: newIDs)
            if !whole.lengthened.isEmpty { lengthenedRounds += 1 }
            if let remade = Slugger.remade(made, changed: changed, id: { newIDs[$0] }) {
                remadeCount += 1
                #expect(remade.slugs == whole.slugs, "round \(round)")
                #expect(remade.bases == whole.bases, "round \(round)")
                #expect(whole.lengthened.sorted() == remade.lengthened.sorted(), "round \(round)")
            }
            ids = newIDs
            made = whole
        }
        #expect(remadeCount >= 150, "\(remadeCount) of 200")
        #expect(lengthenedRounds >= 20, "\(lengthenedRounds) rounds with a hash lengthened")
    }

    /// A changed id whose hash is another id (a base) would be lengthened in a whole run:
    /// the slugs are not made from the changed ids alone.
    @Test func aHashTakenAlreadyIsNotRemade() {
        let short = "mueller-" + String(String(Slugger.fnv1a("Mueller"), radix: 16).prefix(6))
        let made = Slugger.made(for: ["MUELLER", short, "x"])
        #expect(made.lengthened.isEmpty)
        let whole = Slugger.made(for: ["MUELLER", short, "Mueller"])
        #expect(whole.lengthened == [2])
        let renamed = ["MUELLER", short, "Mueller"]
        #expect(Slugger.remade(made, changed: [(2, "Mueller")], id: { renamed[$0] }) == nil)
        // The same when that base is no slug: two ids share it and neither is it.
        let shared = [short.uppercased(), "M" + short.dropFirst()]
        let before = ["MUELLER"] + shared + ["x"]
        let after = ["MUELLER"] + shared + ["Mueller"]
        #expect(Slugger.made(for: before).slugs.allSatisfy { $0 != short })
        #expect(Slugger.made(for: after).lengthened == [3])
        let remade = Slugger.remade(Slugger.made(for: before), changed: [(3, "Mueller")], id: { after[$0] })
        #expect(remade == nil)
        // A run that lengthened one: the hash that blocked it stays, or it is not remade.
        let kept = Slugger.remade(whole, changed: [(0, "y")], id: { ["y", short, "Mueller"][$0] })
        #expect(kept == nil || kept?.slugs == Slugger.slugs(for: ["y", short, "Mueller"]))
        #expect(Slugger.remade(whole, changed: [(1, "y")], id: { ["MUELLER", "y", "Mueller"][$0] }) == nil)
    }
}
