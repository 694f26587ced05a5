import RolodeckPlan
import RolodeckCore

/// How a term finds a contact; results are ranked by it, lower first.
enum SearchTier: UInt8, Comparable, CaseIterable, Sendable {
    /// The term starts a word of the contact's name (or of an organization card's name).
    case name = 0
    /// The term starts a word of another field: organization, email, phone number, group.
    case other = 1
    /// The term starts inside a word ("ller" in Müller, "1234" in 010-1234-5678).
    case inside = 2

    /// Orders tiers by rank, `name` first.
    static func < (lhs: SearchTier, rhs: SearchTier) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Something that collects terms: the index builder, or a test.
protocol SearchTermSink {
    /// Takes one term of the current contact; the same key may come more than once.
    mutating func add(_ key: ArraySlice<UInt16>, _ tier: SearchTier)

    /// Takes the terms of a text many contacts share (a name, an organization, a group), which
    /// a sink may remember instead of folding the text again.
    mutating func add(sharedText text: String, tier: SearchTier)

    /// Takes the terms of a part of plain ASCII letters and digits, folded (see
    /// `SearchTerms.add(part:starts:tier:to:)`). A sink may remember them: the parts of email
    /// addresses repeat (domains, common names).
    mutating func add(asciiPart units: ArraySlice<UInt16>, tier: SearchTier)

    /// Takes the tail of `units` from each of `starts` (ascending indices of `units`; an empty
    /// tail is skipped): the first tail in tier `first`, the others in tier `rest`. A sink may
    /// hash the tails together instead of one by one.
    mutating func add(
        tailsOf units: ArraySlice<UInt16>, from starts: some BidirectionalCollection<Int>,
        _ first: SearchTier, then rest: SearchTier)
}

extension SearchTermSink {
    /// Takes each tail one by one.
    mutating func add(
        tailsOf units: ArraySlice<UInt16>, from starts: some BidirectionalCollection<Int>,
        _ first: SearchTier, then rest: SearchTier
    ) {
        for index in starts.indices where starts[index] < units.endIndex {
            add(units[starts[index]...], index == starts.startIndex ? first : rest)
        }
    }

    /// Takes the terms of the text, folding it anew.
    mutating func add(sharedText text: String, tier: SearchTier) {
        SearchTerms.add(text: text, tier: tier, to: &self)
    }

    /// Takes the terms of the part, worked out anew.
    mutating func add(asciiPart units: ArraySlice<UInt16>, tier: SearchTier) {
        SearchTerms.add(part: units, starts: units.indices, tier: tier, to: &self)
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
        entry: Directory.Entry, groupNames: some Sequence<String>, config: SiteConfig,
        to sink: inout Sink
    ) {
        add(
            entry: entry, groupNames: groupNames, config: config, phoneRegion: config.effectivePhoneRegion,
            to: &sink)
    }

    /// The terms of a planned contact, with the config's `effectivePhoneRegion` worked out once
    /// for many contacts.
    static func add<Sink: SearchTermSink>(
        entry: Directory.Entry, groupNames: some Sequence<String>, config: SiteConfig,
        phoneRegion: String?, to sink: inout Sink
    ) {
        add(
            contact: entry.contact, displayName: entry.displayName, groupNames: groupNames, config: config,
            phoneRegion: phoneRegion, to: &sink)
    }

    /// The terms of a planned contact given by the two fields of its entry they depend on, which
    /// a caller can read where the directory holds them (a copy of the entry retains each of its
    /// strings and releases them after).
    static func add<Sink: SearchTermSink>(
        contact: Contact, displayName: String, groupNames: some Sequence<String>, config: SiteConfig,
        phoneRegion: String?, to sink: inout Sink
    ) {
        add(name: contact.givenName, to: &sink)
        add(name: contact.familyName, to: &sink)
        add(name: contact.additionalNames, to: &sink)
        add(name: contact.suffix, to: &sink)
        add(name: contact.phoneticGivenName, to: &sink)
        add(name: contact.phoneticFamilyName, to: &sink)
        // The display name adds what stands in for a missing name (nickname, organization) and
        // East Asian names typed without a space, family name first (김철수, 佐藤花子).
        if !contact.hasPersonalName || !containsSpace(displayName) {
            sink.add(sharedText: displayName, tier: .name)
        }
        if !contact.phoneticFamilyName.isEmpty || !contact.phoneticGivenName.isEmpty {
            let reading =
                contact.phoneticFamilyName.trimmingWhitespace + contact.phoneticGivenName.trimmingWhitespace
            if NameScript.isEastAsian(reading) { sink.add(sharedText: reading, tier: .name) }
        }
        if config.shows(.nickname) { sink.add(sharedText: contact.nickname, tier: .name) }
        if config.shows(.organization) { sink.add(sharedText: contact.organization, tier: .other) }
        if config.shows(.emails) {
            for email in contact.emails { add(text: email.value, tier: .other, to: &sink) }
        }
        if config.shows(.phones) {
            for phone in contact.phones {
                add(phone: phone.value, region: phoneRegion, to: &sink)
            }
        }
        if config.shows(.groups) {
            for name in groupNames { sink.add(sharedText: name, tier: .other) }
        }
    }

    /// A name part, unless it is empty.
    private static func add<Sink: SearchTermSink>(name: String, to sink: inout Sink) {
        if !name.isEmpty { sink.add(sharedText: name, tier: .name) }
    }

    /// Whether the text has a space character, as `text.contains(" ")` tells, without asking
    /// Foundation when the bytes decide it. A text without the byte 0x20 has none. A space
    /// followed by ASCII (or nothing) and following a scalar below U+0600 (or nothing) is a
    /// character of its own: only a mark or joiner after it, or a prepended concatenation mark
    /// (U+0600 and above) before it, could join it to another.
    static func containsSpace(_ text: String) -> Bool {
        var text = text
        let decided: Bool? = text.withUTF8 { bytes in
            var found = false
            for index in bytes.indices where bytes[index] == 0x20 {
                found = true
                let before =
                    index == 0 || bytes[index - 1] < 0x80
                    || (index >= 2 && (0xC2..<0xD8).contains(bytes[index - 2]) && bytes[index - 1] < 0xC0)
                let after = index + 1 == bytes.count || bytes[index + 1] < 0x80
                if before && after { return true }
            }
            return found ? nil : false
        }
        return decided ?? text.contains(" ")
    }

    /// The terms of a text: a name, an organization, an email address, a group name.
    static func add<Sink: SearchTermSink>(text: String, tier: SearchTier, to sink: inout Sink) {
        var text = text
        let isASCII = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            add(ascii: bytes, tier: tier, to: &sink)
            return true
        }
        if !isASCII { add(words: SearchFolding.words(text), tier: tier, to: &sink) }
    }

    /// The terms of folded words.
    static func add<Sink: SearchTermSink>(
        words: [[SearchFolding.Part]], tier: SearchTier, to sink: inout Sink
    ) {
        for word in words {
            add(word: word, long: false, tier: tier, to: &sink)
            if word.contains(where: { $0.long != nil }) { add(word: word, long: true, tier: tier, to: &sink) }
            for part in word {
                if let initials = part.initials {
                    add(part: initials[...], starts: initials.indices, tier: tier, to: &sink)
                }
            }
        }
    }

    /// The terms of plain ASCII text, as `add(words:tier:to:)` gives them for its folded words
    /// (see `SearchFolding`), without making the words: the letters and digits are folded into
    /// one buffer, where a word's parts follow one another as in its whole.
    static func add<Sink: SearchTermSink>(
        ascii bytes: UnsafeBufferPointer<UInt8>, tier: SearchTier, to sink: inout Sink
    ) {
        // The letters and digits folded first, in one go, into memory allocated once: the parts
        // and words are then slices of the whole, and no append checks the array's uniqueness.
        let units = [UInt16](unsafeUninitializedCapacity: bytes.count) { units, count in
            for byte in bytes {
                switch byte {
                case 0x30...0x39, 0x61...0x7A:
                    units[count] = UInt16(byte)
                    count += 1
                case 0x41...0x5A:
                    units[count] = UInt16(byte) + 0x20
                    count += 1
                default:
                    break
                }
            }
        }
        // Where the current word and part start in `units`, and how far its units go;
        // `partStarts` holds where the word's parts start.
        var partStarts: [Int] = []
        partStarts.reserveCapacity(8)
        var wordStart = 0, partStart = 0, end = 0
        for index in 0...bytes.count {
            let byte = index < bytes.count ? bytes[index] : 0x20
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A:
                end += 1
                continue
            default:
                break
            }
            // Punctuation ends a part, white space (and the end) a word.
            if end > partStart {
                sink.add(asciiPart: units[partStart..<end], tier: tier)
                partStarts.append(partStart)
                partStart = end
            }
            guard byte == 0x20 || (0x09...0x0D).contains(byte) else { continue }
            if partStarts.count > 1 {
                sink.add(tailsOf: units[wordStart..<end], from: partStarts, tier, then: tier)
            }
            partStarts.removeAll(keepingCapacity: true)
            wordStart = end
        }
    }

    /// One spelling of a word: each part, and if it has several, the whole from each part on.
    private static func add<Sink: SearchTermSink>(
        word: [SearchFolding.Part], long: Bool, tier: SearchTier,
        to sink: inout Sink
    ) {
        for part in word {
            if long, let spelling = part.long {
                add(part: spelling.units[...], starts: spelling.starts, tier: tier, to: &sink)
            } else {
                add(part: part.units[...], starts: part.starts, tier: tier, to: &sink)
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
        sink.add(tailsOf: whole[...], from: starts, tier, then: tier)
    }

    /// A part: whole with `tier`, and from each later character on with `inside`. `starts` are
    /// the indices of `units` where its characters start.
    static func add<Sink: SearchTermSink>(
        part units: ArraySlice<UInt16>, starts: some BidirectionalCollection<Int>, tier: SearchTier,
        to sink: inout Sink
    ) {
        // Walking back from the end tells for each tail whether it is all digits.
        var digitsFrom = units.endIndex
        while digitsFrom > units.startIndex, units[digitsFrom - 1] >= 0x30, units[digitsFrom - 1] <= 0x39 {
            digitsFrom -= 1
        }
        // The starts of long enough tails come first: a tail shorter than 2 units is shorter
        // than 3, and one that starts before `digitsFrom` is longer than one that starts at it.
        var index = starts.startIndex
        if index != starts.endIndex { starts.formIndex(after: &index) }
        while index != starts.endIndex,
            units.endIndex - starts[index] >= (starts[index] >= digitsFrom ? 3 : 2)
        {
            starts.formIndex(after: &index)
        }
        sink.add(tailsOf: units, from: starts[..<index], tier, then: .inside)
    }

    /// The terms of a phone number: each of its digit forms from the start, and every run of
    /// three or more digits of the forms as written and as dialled at home.
    static func add<Sink: SearchTermSink>(phone raw: String, region: String?, to sink: inout Sink) {
        let packed = PhoneSearchDigits.packedForms(of: raw, region: region)
        let all = packed.digits
        for (index, form) in packed.forms.enumerated() {
            // The whole from the start, then with runs each tail of 3 digits or more. A form
            // whose digits after the first end a form before it with runs (as dialled at home,
            // 0151…, after 49151…) has those tails already, each a tail or the whole there.
            let digits = all[form.digits]
            let runsAdded = packed.forms[..<index].contains { earlier in
                earlier.findsRuns && earlier.digits.count >= digits.count - 1
                    && all[earlier.digits].suffix(digits.count - 1).elementsEqual(digits.dropFirst())
            }
            let runs = form.findsRuns && !runsAdded ? max(1, digits.count - 2) : 1
            let starts = digits.startIndex..<digits.startIndex + runs
            sink.add(tailsOf: digits, from: starts, .other, then: .inside)
        }
    }
}
