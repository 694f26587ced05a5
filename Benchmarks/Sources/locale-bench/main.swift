import Foundation
import RolodeckLocale

// Usage: swift run -c release --package-path Benchmarks locale-bench
//          [--count N] [--locales en,de,sv,ko,ja] [--unique] [--baseline]
//   --unique    makes every primary sort string distinct (worst case: no sharing of family names)
//   --baseline  also times a plain sort that calls Foundation's locale compare in every comparison

var count = 100_000
var locales = ["en", "de", "sv", "ko", "ja"]
var unique = false
var baseline = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--count": count = Int(arguments.next() ?? "") ?? count
    case "--locales": locales = (arguments.next() ?? "").split(separator: ",").map(String.init)
    case "--unique": unique = true
    case "--baseline": baseline = true
    default: print("unknown argument \(argument)"); exit(2)
    }
}

/// The time since `start`, formatted in seconds.
func seconds(_ start: ContinuousClock.Instant) -> String {
    let duration = ContinuousClock.now - start
    let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String(format: "%.3f s", value)
}

print("contacts: \(count), unique primaries: \(unique)")
for locale in locales {
    var corpus = NameCorpus(seed: 42)
    let contacts = corpus.contacts(count: count, locale: locale, uniqueNames: unique)
    let distinct = Set(contacts.map(\.primary)).count + Set(contacts.map(\.secondary)).count
    let sorter = DirectorySorter(localeIdentifier: locale)
    let start = ContinuousClock.now
    let groups = sorter.sorted(contacts) { (primary: $0.primary, secondary: $0.secondary, id: $0.id) }
    let sorted = seconds(start)
    let total = groups.reduce(0) { $0 + $1.items.count }
    var line = "\(locale): DirectorySorter \(sorted) (\(groups.count) sections, \(total) items, ~\(distinct) distinct strings)"
    if baseline {
        let foundation = Locale(identifier: locale)
        let plainStart = ContinuousClock.now
        let plain = contacts.sorted {
            $0.primary.compare($1.primary, options: [], range: nil, locale: foundation) == .orderedAscending
        }
        line += "; plain Foundation-compare sort of primaries \(seconds(plainStart)) (\(plain.count))"
    }
    print(line)
}
