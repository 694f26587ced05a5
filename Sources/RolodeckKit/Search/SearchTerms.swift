/// How a term finds a contact; results are ranked by it, lower first.
enum SearchTier: UInt8, Comparable, CaseIterable, Sendable {
    /// The term starts a word of the contact's name (or of an organization card's name).
    case name = 0
    /// The term starts a word of another field: organization, email, phone number, group.
    case other = 1
    /// The term starts inside a word ("ller" in Müller, "1234" in 010-1234-5678).
    case inside = 2

    static func < (lhs: SearchTier, rhs: SearchTier) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Something that collects terms: the index builder, or a test.
protocol SearchTermSink {
    /// Takes one term of the current contact; the same key may come more than once.
    mutating func add(_ key: ArraySlice<UInt16>, _ tier: SearchTier)

    /// Takes the terms of a text many contacts share (a name, an organization, a group), which
    /// a sink may remember instead of folding the text again.
    mutating func add(sharedText text: String, tier: SearchTier)
}

extension SearchTermSink {
    mutating func add(sharedText text: String, tier: SearchTier) {
        SearchTerms.add(text: text, tier: tier, to: &self)
    }
}

/// The terms a contact is found by.
///
/// A term is a folded key (see `SearchFolding`). Every word part, the whole of a word with
/// punctuation ("obrien", "juergenmuellermorgenrotexample") and its tails from each part on,
/// and the initial consonants of a Hangul part are found by prefix; every tail that starts
/// inside a part is a term of the `inside` tier, which is how a search finds text inside words.
enum SearchTerms {
    /// The shortest inside-a-word term: 2 units, 3 for digits (two digits are inside nearly
    /// every phone number). The client skips the `inside` tier for shorter queries.
    static func minimumInsideLength(of key: some Collection<UInt16>) -> Int {
        key.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? 3 : 2
    }

    /// The terms of a planned contact: its name parts (with the suffix, not the salutation or the
    /// sort-as names, which are never shown), and the fields the site shows among
    /// organization, emails, phone numbers, nickname and groups (hidden fields are never indexed).
    static func add<Sink: SearchTermSink>(
        entry: Directory.Entry, groupNames: [String], config: SiteConfig,
        to sink: inout Sink
    ) {
        let contact = entry.contact
        let names = [
            contact.givenName, contact.familyName, contact.additionalNames, contact.suffix,
            contact.phoneticGivenName, contact.phoneticFamilyName,
        ]
        for name in names where !name.isEmpty {
            sink.add(sharedText: name, tier: .name)
        }
        // The display name adds what stands in for a missing name (nickname, organization) and
        // East Asian names typed without a space, family name first (김철수, 佐藤花子).
        if !contact.hasPersonalName || !entry.displayName.contains(" ") {
            sink.add(sharedText: entry.displayName, tier: .name)
        }
        let reading =
            contact.phoneticFamilyName.trimmingWhitespace + contact.phoneticGivenName.trimmingWhitespace
        if NameFormatter.isEastAsian(reading) { sink.add(sharedText: reading, tier: .name) }
        if config.shows(.nickname) { sink.add(sharedText: contact.nickname, tier: .name) }
        if config.shows(.organization) { sink.add(sharedText: contact.organization, tier: .other) }
        if config.shows(.emails) {
            for email in contact.emails { add(text: email.value, tier: .other, to: &sink) }
        }
        if config.shows(.phones) {
            for phone in contact.phones {
                add(phone: phone.value, region: config.effectivePhoneRegion, to: &sink)
            }
        }
        if config.shows(.groups) {
            for name in groupNames { sink.add(sharedText: name, tier: .other) }
        }
    }

    /// The terms of a text: a name, an organization, an email address, a group name.
    static func add<Sink: SearchTermSink>(text: String, tier: SearchTier, to sink: inout Sink) {
        for word in SearchFolding.words(text) {
            add(word: word, long: false, tier: tier, to: &sink)
            if word.contains(where: { $0.long != nil }) { add(word: word, long: true, tier: tier, to: &sink) }
            for part in word {
                if let initials = part.initials {
                    add(part: initials, starts: initials.indices, tier: tier, to: &sink)
                }
            }
        }
    }

    /// One spelling of a word: each part, and if it has several, the whole from each part on.
    private static func add<Sink: SearchTermSink>(
        word: [SearchFolding.Part], long: Bool, tier: SearchTier,
        to sink: inout Sink
    ) {
        for part in word {
            if long, let spelling = part.long {
                add(part: spelling.units, starts: spelling.starts, tier: tier, to: &sink)
            } else {
                add(part: part.units, starts: part.starts, tier: tier, to: &sink)
            }
        }
        guard word.count > 1 else { return }
        // The whole word once, then each tail of it that starts at a part.
        var whole: [UInt16] = [], starts: [Int] = []
        starts.reserveCapacity(word.count)
        for part in word {
            starts.append(whole.count)
            whole += long ? part.queryUnits : part.units
        }
        for start in starts { sink.add(whole[start...], tier) }
    }

    /// A part: whole with `tier`, and from each later character on with `inside`.
    private static func add<Sink: SearchTermSink>(
        part units: [UInt16], starts: some Collection<Int>, tier: SearchTier,
        to sink: inout Sink
    ) {
        sink.add(units[...], tier)
        // Walking back from the end tells for each tail whether it is all digits.
        var digitsFrom = units.count
        while digitsFrom > 0, units[digitsFrom - 1] >= 0x30, units[digitsFrom - 1] <= 0x39 { digitsFrom -= 1 }
        for start in starts.dropFirst() {
            let tail = units[start...]
            if tail.count >= (start >= digitsFrom ? 3 : 2) { sink.add(tail, .inside) }
        }
    }

    /// The terms of a phone number: each of its digit forms from the start, and every run of
    /// three or more digits of the forms as written and as dialled at home.
    static func add<Sink: SearchTermSink>(phone raw: String, region: String?, to sink: inout Sink) {
        for form in PhoneSearchDigits.forms(of: raw, region: region) {
            let digits = form.digits
            sink.add(digits[...], .other)
            guard form.findsRuns else { continue }
            for start in digits.indices.dropFirst() where digits.count - start >= 3 {
                sink.add(digits[start...], .inside)
            }
        }
    }
}
