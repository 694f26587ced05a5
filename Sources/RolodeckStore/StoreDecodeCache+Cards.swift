import RolodeckCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where each card of a long vCard file is: the byte and the physical line (from 0) its
/// `BEGIN:VCARD` starts at, one for each card written in the file, in order, and how many
/// physical lines the file has; the problems each card's lines and fields have; and which cards
/// yield no record (one with nothing to show, which is reported and skipped). Kept only for a
/// file whose pieces read as they do in the file and whose cards each begin at a line
/// `ContentLineFile.componentStarts` finds, so the bytes from one start to the next are exactly
/// one card, read the same on their own as in the file, with the same problems.
struct CardSpans: Sendable {
    var starts: [Int]
    var lines: [Int]
    var lineCount: Int
    /// Each card's problems: of its lines (the file reports them all first), of its fields.
    var lineDiagnostics: [[Diagnostic]]
    var fieldDiagnostics: [[Diagnostic]]
    /// The cards that yield no record, in order. Exports have a few (a contact with only an
    /// address); the records of the others are in order, so a card's record is found by how many
    /// of these come before it.
    var empty: [Int] = []

    init(starts: [Int], lines: [Int], lineCount: Int) {
        self.starts = starts
        self.lines = lines
        self.lineCount = lineCount
        lineDiagnostics = Array(repeating: [], count: starts.count)
        fieldDiagnostics = lineDiagnostics
    }

    /// The position among the records of the first card at or after card `index` that yields
    /// one (the records' count for the file's end).
    func record(at index: Int) -> Int {
        var low = 0, high = empty.count
        while low < high {
            let middle = (low + high) / 2
            if empty[middle] < index { low = middle + 1 } else { high = middle }
        }
        return index - low
    }

    /// Whether card `index` yields no record.
    func isEmpty(_ index: Int) -> Bool {
        let position = record(at: index)
        return index - position < empty.count && empty[index - position] == index
    }

    /// The spans of `cards`, read from `file` with the problems given; nil when some record does
    /// not begin at a line that a piece may start at (an `AGENT` card embedded after another), a
    /// card without a record was not reported where it begins, or a problem is not in a card.
    init?(
        _ cards: [VCardRecord], in file: ContentLineFile, lineDiagnostics: [Diagnostic] = [],
        fieldDiagnostics: [Diagnostic] = []
    ) {
        let lines = file.componentStarts("VCARD")
        // Each record at the start of a card in order; a card without one must have been
        // reported where it begins (one with nothing to show).
        var empty: [Int] = []
        var record = 0
        for (index, line) in lines.enumerated() {
            if record < cards.count, cards[record].location.line == line + 1 {
                record += 1
            } else if fieldDiagnostics.contains(where: { $0.location?.line == line + 1 }) {
                empty.append(index)
            } else {
                return nil
            }
        }
        guard record == cards.count else { return nil }
        self.init(starts: lines.map { file.lines[$0].start }, lines: lines, lineCount: file.lines.count)
        self.empty = empty
        /// The card whose lines a problem is in: the last that begins at or before its line.
        func card(of diagnostic: Diagnostic) -> Int? {
            guard let line = diagnostic.location?.line, let first = lines.first, line > first else {
                return nil
            }
            var low = 0, high = lines.count
            while low < high {
                let middle = (low + high) / 2
                if lines[middle] + 1 <= line { low = middle + 1 } else { high = middle }
            }
            return low - 1
        }
        for diagnostic in lineDiagnostics {
            guard let card = card(of: diagnostic) else { return nil }
            self.lineDiagnostics[card].append(diagnostic)
        }
        for diagnostic in fieldDiagnostics {
            guard let card = card(of: diagnostic) else { return nil }
            self.fieldDiagnostics[card].append(diagnostic)
        }
    }

    /// Gives card `index` the problems of its lines and its fields, moved by `delta` lines.
    mutating func setDiagnostics(
        of index: Int, lines: [Diagnostic], fields: [Diagnostic], movedBy delta: Int
    ) {
        lineDiagnostics[index] = lines.map { $0.moved(lines: delta) }
        fieldDiagnostics[index] = fields.map { $0.moved(lines: delta) }
    }

    /// Every problem, as the file read whole reports them: its lines', then its fields'.
    var diagnostics: [Diagnostic] {
        Array(lineDiagnostics.joined()) + Array(fieldDiagnostics.joined())
    }
}

extension Diagnostic {
    /// The diagnostic moved by `delta` lines, for a card whose text moved.
    fileprivate func moved(lines delta: Int) -> Diagnostic {
        guard delta != 0 else { return self }
        var moved = self
        moved.location?.line += delta
        return moved
    }
}

extension StoreDecodeCache {
    /// The cards a save read again in a vCard file: those that were there, and the positions of
    /// those that are there now.
    struct CardChange {
        var replaced: [VCardRecord]
        var fresh: [Int]
    }

    /// A vCard file's cards and problems, the entry changed to the file as it is, in place. In a
    /// long file whose cards and problems were found card by card (`CardSpans`: a phone's
    /// export of every contact), only the cards in the stretch whose bytes changed are read
    /// again; the cards after it, and their problems, are moved to the lines they are on now.
    /// Otherwise the file is read whole, and so is a small one. With the change: the cards read
    /// again as they were, and where those that replaced them are; every card, for a file read
    /// whole.
    func cards(of file: StoreFile, updating entry: inout Entry)
        -> (yield: (cards: [VCardRecord], diagnostics: [Diagnostic]), change: CardChange)
    {
        if case .cards(_, let diagnostics, let spans?) = entry.yield, !file.source.bytes.isUTF16 {
            var cards = entry.takeCards()
            if let (replaced, fresh, newSpans) = Self.patch(
                &cards, spans: spans, from: entry.bytes, to: file.source)
            {
                state.withLock { $0.decoded += fresh.count }
                let diagnostics = newSpans.diagnostics
                entry = Entry(bytes: file.source.bytes, yield: .cards(cards, diagnostics, spans: newSpans))
                return ((cards, diagnostics), CardChange(replaced: replaced, fresh: fresh))
            }
            entry.yield = .cards(cards, diagnostics, spans: spans)
        }
        let replaced = entry.cards
        let (cards, diagnostics, spans) = StoreDecoder.cardsAndSpans(of: file)
        state.withLock { $0.decoded += cards.count }
        entry = Entry(bytes: file.source.bytes, yield: .cards(cards, diagnostics, spans: spans))
        return ((cards, diagnostics), CardChange(replaced: replaced, fresh: Array(cards.indices)))
    }

    /// Changes `cards`, read from `old`, to those of `new`: the cards whose bytes lie wholly
    /// before or after the changed stretch are kept (those after moved by the lines the stretch
    /// gained or lost), and the stretch is read on its own: card by card when it holds as many
    /// cards as it did (the cards whose bytes are the same are kept there too), else as a
    /// whole. Nil, with `cards` as they were, when the stretch does not start and end at a card,
    /// or a card of it does not read as it does in the file (a stretch read whole: has a
    /// problem).
    private static func patch(
        _ cards: inout [VCardRecord], spans: CardSpans, from old: [UInt8], to new: SourceText
    ) -> (replaced: [VCardRecord], fresh: [Int], spans: CardSpans)? {
        let bytes = new.bytes
        let ends = JSONArraySplitter.commonEnds(old, bytes)
        let count = spans.starts.count
        guard let first = spans.starts.first, ends.prefix >= first else { return nil }
        func end(_ index: Int) -> Int { index + 1 < count ? spans.starts[index + 1] : old.count }
        // The cards before the stretch end within the common start; those after it begin after
        // a byte of the common end, so the line break before them is the same as well.
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if end(middle) <= ends.prefix { low = middle + 1 } else { high = middle }
        }
        let firstChanged = low
        var after = firstChanged
        while after < count, spans.starts[after] < old.count - ends.suffix + 1 { after += 1 }
        let oldStart = firstChanged < count ? spans.starts[firstChanged] : old.count
        let oldEnd = after < count ? spans.starts[after] : old.count
        let newStart = oldStart, newEnd = bytes.count - (old.count - oldEnd)
        guard newEnd >= newStart else { return nil }
        // The stretch starts a line: after a line break that is not the CR of a CR LF.
        if newStart > 0 {
            let before = bytes[newStart - 1]
            guard before == 0x0A || (before == 0x0D && (newStart == bytes.count || bytes[newStart] != 0x0A))
            else { return nil }
        }
        let startLine = firstChanged < count ? spans.lines[firstChanged] : spans.lineCount
        let endLine = after < count ? spans.lines[after] : spans.lineCount
        // The records of the stretch's cards, as positions among the records.
        let firstRecord = spans.record(at: firstChanged), afterRecord = spans.record(at: after)
        var fresh: [VCardRecord] = []
        // Where the stretch's cards are in the file as it is, and their problems.
        var freshSpans = CardSpans(starts: [], lines: [], lineCount: 0)
        // The cards read again: those that were there, and where those now there are.
        var replaced = Array(cards[firstRecord..<afterRecord])
        var read: [Int] = []
        if newEnd > newStart {
            let text = ContentLineFile(
                source: SourceText(path: new.path, bytes: Array(bytes[newStart..<newEnd])))
            let starts = text.componentStarts("VCARD")
            var stretch: CardSpans
            if starts.count == after - firstChanged, starts.first == 0 {
                // As many cards as before, one for one: the same bytes, the same card.
                replaced = []
                stretch = CardSpans(
                    starts: starts.map { text.lines[$0].start }, lines: starts, lineCount: text.lines.count)
                for (offset, line) in starts.enumerated() {
                    let index = firstChanged + offset
                    let next = offset + 1 < starts.count ? starts[offset + 1] : text.lines.count
                    let newCard =
                        text.lines[line]
                        .start..<(next < text.lines.count ? text.lines[next].start : text.bytes.count)
                    let oldCard = spans.starts[index]..<end(index)
                    let same =
                        newCard.count == oldCard.count
                        && text.bytes.withUnsafeBytes { new in
                            old.withUnsafeBytes { old in
                                memcmp(
                                    new.baseAddress! + newCard.lowerBound,
                                    old.baseAddress! + oldCard.lowerBound, newCard.count) == 0
                            }
                        }
                    if same {
                        let delta = startLine + line - spans.lines[index]
                        if spans.isEmpty(index) {
                            stretch.empty.append(offset)
                        } else {
                            var card = cards[spans.record(at: index)]
                            card.move(lines: delta)
                            fresh.append(card)
                        }
                        stretch.setDiagnostics(
                            of: offset, lines: spans.lineDiagnostics[index],
                            fields: spans.fieldDiagnostics[index],
                            movedBy: delta)
                        continue
                    }
                    // The card alone, as a piece of the stretch: it reads as it does in the file,
                    // with the same problems.
                    guard let piece = StoreDecoder.cardPiece(offset, of: text, starts: starts) else {
                        return nil
                    }
                    if !spans.isEmpty(index) { replaced.append(cards[spans.record(at: index)]) }
                    if var card = piece.cards.first {
                        guard piece.cards.count == 1, card.location.line == line + 1 else { return nil }
                        card.move(lines: startLine)
                        read.append(firstRecord + fresh.count)
                        fresh.append(card)
                    } else {
                        // A card with nothing to show, reported where it begins.
                        guard piece.fieldDiagnostics.contains(where: { $0.location?.line == line + 1 })
                        else { return nil }
                        stretch.empty.append(offset)
                    }
                    stretch.setDiagnostics(
                        of: offset, lines: piece.lineDiagnostics, fields: piece.fieldDiagnostics,
                        movedBy: startLine)
                }
            } else {
                // Read without a problem, every card of the stretch began and ended in it, and
                // nothing else is in it but blank lines: it reads as it does in the file.
                let (cards, diagnostics) =
                    StoreDecoder.readsInPieces(text.bytes.count)
                    ? StoreDecoder.cards(
                        of: text, startingAt: StoreDecoder.cardPieceStarts(of: text, pieceLength: nil))
                    : StoreDecoder.wholeCards(of: text)
                guard diagnostics.isEmpty, let spans = CardSpans(cards, in: text) else { return nil }
                stretch = spans
                fresh = cards
                for index in fresh.indices { fresh[index].move(lines: startLine) }
                read = Array(firstRecord..<(firstRecord + fresh.count))
            }
            freshSpans = stretch
            freshSpans.starts = stretch.starts.map { $0 + newStart }
            freshSpans.lines = stretch.lines.map { $0 + startLine }
        }
        let lineDelta = freshSpans.lineCount - (endLine - startLine)
        let byteDelta = bytes.count - old.count
        cards.replaceSubrange(firstRecord..<afterRecord, with: fresh)
        for index in (firstRecord + fresh.count)..<cards.count { cards[index].move(lines: lineDelta) }
        var newSpans = spans
        newSpans.starts.replaceSubrange(firstChanged..<after, with: freshSpans.starts)
        newSpans.lines.replaceSubrange(firstChanged..<after, with: freshSpans.lines)
        newSpans.lineDiagnostics.replaceSubrange(firstChanged..<after, with: freshSpans.lineDiagnostics)
        newSpans.fieldDiagnostics.replaceSubrange(firstChanged..<after, with: freshSpans.fieldDiagnostics)
        // The cards without a record: those before the stretch, the stretch's, those after it
        // numbered by the cards it gained or lost.
        let cardDelta = freshSpans.starts.count - (after - firstChanged)
        newSpans.empty =
            spans.empty.filter { $0 < firstChanged } + freshSpans.empty.map { $0 + firstChanged }
            + spans.empty.filter { $0 >= after }.map { $0 + cardDelta }
        let moved = firstChanged + freshSpans.starts.count
        for index in moved..<newSpans.starts.count {
            newSpans.starts[index] += byteDelta
            newSpans.lines[index] += lineDelta
            if !newSpans.lineDiagnostics[index].isEmpty || !newSpans.fieldDiagnostics[index].isEmpty {
                newSpans.setDiagnostics(
                    of: index, lines: newSpans.lineDiagnostics[index],
                    fields: newSpans.fieldDiagnostics[index],
                    movedBy: lineDelta)
            }
        }
        newSpans.lineCount += lineDelta
        return (replaced, read, newSpans)
    }
}

extension StoreDecodeCache.Entry {
    /// The cards of a vCard file's yield.
    var cards: [VCardRecord] {
        guard case .cards(let cards, _, _) = yield else { return [] }
        return cards
    }

    /// The cards of a vCard file's yield, taken out of it so that whoever takes them holds the
    /// only reference to them, and can change them without copying them.
    mutating func takeCards() -> [VCardRecord] {
        guard case .cards(let cards, let diagnostics, let spans) = yield else { return [] }
        yield = .cards([], diagnostics, spans: spans)
        return cards
    }
}

extension VCardRecord {
    /// Moves every location of the record by `delta` lines, for a card whose text moved.
    mutating func move(lines delta: Int) {
        guard delta != 0 else { return }
        location.line += delta
        uid?.location.line += delta
        for index in categories.indices { categories[index].location.line += delta }
        if case .group(let name, let notes, let classification, var members) = content {
            for index in members.indices { members[index].location.line += delta }
            content = .group(name: name, notes: notes, classification: classification, members: members)
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes start with a UTF-16 byte-order mark: `ContentLineReader` reads such a
    /// file converted, so places in it are not places in these bytes.
    var isUTF16: Bool { starts(with: [0xFF, 0xFE]) || starts(with: [0xFE, 0xFF]) }
}
