import RolodeckCore

/// Splits a vCard file into cards: `BEGIN:VCARD` … `END:VCARD`, any number per file.
///
/// Each card is unfolded by its own version (2.1 keeps the folding whitespace), so the version
/// is looked up before the card's lines are read; a card without `VERSION` is read as 2.1 when
/// it uses 2.1's quoted-printable or `CHARSET`, else as 3.0. A missing `END:VCARD` ends the card
/// at the next `BEGIN:VCARD` or the end of the file; a vCard 2.1 `AGENT` card embedded in
/// another is skipped.
enum VCardParser {
    /// The cards of a file and the problems found in its lines.
    static func parse(_ source: SourceText) -> (cards: [VCard], diagnostics: [Diagnostic]) {
        parse(ContentLineFile(source: source))
    }

    /// The cards of the physical lines `range` of a file (all of them by default) and the
    /// problems found in them.
    static func parse(_ file: ContentLineFile, lines range: Range<Int>? = nil)
        -> (cards: [VCard], diagnostics: [Diagnostic])
    {
        let piece = parsePiece(file, lines: range)
        return (piece.cards, piece.diagnostics)
    }

    /// `parse` of the physical lines `range` of a file, and whether they read as they do in the
    /// whole file: a piece that starts at a `ContentLineFile.componentStart` does when it ends
    /// between cards and no line of it was skipped (skipped lines are counted for a file). Its
    /// cards and problems are then the file's there.
    static func parsePiece(_ file: ContentLineFile, lines range: Range<Int>?)
        -> (cards: [VCard], diagnostics: [Diagnostic], readsAsInTheFile: Bool)
    {
        var splitter = CardSplitter(reader: ContentLineReader(file: file, lines: range))
        while let line = splitter.reader.next() {
            splitter.take(line)
        }
        let endsBetweenCards = splitter.current == nil && splitter.agentDepth == 0
        splitter.finishFile(path: file.path)
        return (
            splitter.cards, (splitter.reader.diagnostics + splitter.diagnostics).sortedByLocation(),
            endsBetweenCards && !splitter.reader.hasSkippedLines
        )
    }

    /// Reads a file's lines one by one into the cards they belong to.
    private struct CardSplitter {
        /// The file's content lines.
        var reader: ContentLineReader
        /// The cards so far.
        var cards: [VCard] = []
        /// The card whose lines are being read.
        var current: VCard?
        /// How many `BEGIN:VCARD`s deep an embedded `AGENT` card being skipped is; 0 when none is.
        var agentDepth = 0
        /// Whether text outside a card was reported since the last card began: a run of it is
        /// reported once.
        var reportedOutside = false
        /// The problems with where cards begin and end and their versions (the reader holds
        /// those of the lines themselves).
        var diagnostics: [Diagnostic] = []

        /// Prepares to read the lines `reader` reads.
        init(reader: ContentLineReader) {
            self.reader = reader
        }

        /// Reads one line: the start or the end of a card, or a property of the current one.
        mutating func take(_ line: consuming ContentLine) {
            let isBegin = line.name == "BEGIN", isEnd = line.name == "END"
            let isCard = (isBegin || isEnd) && VCardParser.namesCard(line)
            if agentDepth > 0 {
                if isCard { agentDepth += isBegin ? 1 : -1 }
                return
            }
            if isBegin, isCard {
                begin(at: line)
            } else if current == nil {
                reportOutside(line)
            } else if isEnd, isCard {
                finishCard()
            } else if line.name == "VERSION" {
                checkVersion(line)
            } else {
                // In place, so the card's property array is not copied line by line.
                current?.properties.append(line)
            }
        }

        /// Begins a card at its `BEGIN:VCARD`, its version looked up first. Inside a card, that
        /// line begins an embedded `AGENT` card, which is skipped, or the card before it has no
        /// `END`, which is reported.
        mutating func begin(at line: ContentLine) {
            if let card = current {
                if let last = card.properties.last, last.name == "AGENT", plainValue(last).isEmpty {
                    agentDepth = 1
                    return
                }
                report(.beginInsideCard(line: card.location.line), at: line.location)
                finishCard()
            }
            let version = lookUpVersion()
            reader.keepsFoldWhitespace = version == .v21
            current = VCard(version: version, properties: [], location: line.location)
            // Room for the properties of most cards, so the array is not regrown as they come.
            current?.properties.reserveCapacity(16)
            reportedOutside = false
        }

        /// The version of the card that begins: its `VERSION` (2.1 for the older ones), or 2.1
        /// when it has none but uses 2.1's quoted-printable or `CHARSET`, else 3.0.
        func lookUpVersion() -> VCard.Version {
            switch reader.peekVersion(until: "VCARD") {
            case "2.1"?, "2.0"?, "1.0"?: return .v21
            case "4.0"?: return .v40
            case nil: return reader.peekLooksLikeVersion21(until: "VCARD") ? .v21 : .v30
            default: return .v30
            }
        }

        /// Reports a `VERSION` that no vCard has; the card is read as the version it was begun as.
        mutating func checkVersion(_ line: ContentLine) {
            let written = plainValue(line)
            if !["2.1", "2.0", "1.0", "3.0", "4.0"].contains(written) {
                report(.unknownVersion(written), at: line.valueLocation)
            }
        }

        /// Reports the first line of a run outside any card.
        mutating func reportOutside(_ line: ContentLine) {
            guard !reportedOutside else { return }
            report(.textOutsideCard, at: line.location)
            reportedOutside = true
        }

        /// Adds the current card to the cards; the lines after it are unfolded as 3.0's are.
        mutating func finishCard() {
            guard let card = current.take() else { return }
            cards.append(card)
            reader.keepsFoldWhitespace = false
        }

        /// Ends a card the file leaves open, and reports a file without cards.
        mutating func finishFile(path: String) {
            if let card = current {
                report(.missingEnd, at: card.location)
                finishCard()
            }
            if cards.isEmpty, !reportedOutside {
                report(.noCards, at: SourceLocation(path: path, line: 1, column: 1))
            }
        }

        /// Records a warning.
        mutating func report(_ reason: VCardIssue.Reason, at location: SourceLocation) {
            diagnostics.append(VCardIssue.warning(reason, at: location))
        }
    }

    /// Whether the value of a `BEGIN` or `END` is `VCARD`, in any case, whitespace around it.
    /// An ASCII value (all but odd files) is compared byte by byte, without making a string.
    static func namesCard(_ line: ContentLine) -> Bool {
        line.value.withUnsafeBufferPointer { bytes in
            guard ASCIIBytes.isASCII(bytes) else { return plainValue(line).uppercased() == "VCARD" }
            let trimmed = ASCIIBytes.trimmingWhitespace(bytes, 0..<bytes.count)
            return ASCIIBytes.equals(UnsafeBufferPointer(rebasing: bytes[trimmed]), "VCARD")
        }
    }

    /// A value with no escapes or encoding to speak of (`BEGIN`, `VERSION`), trimmed.
    static func plainValue(_ line: ContentLine) -> String {
        String(decoding: line.value, as: UTF8.self).trimmingWhitespace
    }
}
