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
        var reader = ContentLineReader(source: source)
        var cards: [VCard] = []
        var diagnostics: [Diagnostic] = []
        var current: VCard?
        var agentDepth = 0
        var reportedOutside = false

        func report(_ reason: VCardIssue.Reason, at location: SourceLocation) {
            diagnostics.append(VCardIssue.warning(reason, at: location))
        }
        func finish(_ card: VCard) {
            cards.append(card)
            reader.keepsFoldWhitespace = false
        }

        while let line = reader.next() {
            let isBegin = line.name == "BEGIN", isEnd = line.name == "END"
            let isCard = (isBegin || isEnd) && plainValue(line).uppercased() == "VCARD"
            if agentDepth > 0 {
                if isCard { agentDepth += isBegin ? 1 : -1 }
                continue
            }
            if isBegin, isCard {
                if let card = current {
                    if let last = card.properties.last, last.name == "AGENT", plainValue(last).isEmpty {
                        agentDepth = 1
                        continue
                    }
                    report(.beginInsideCard(line: card.location.line), at: line.location)
                    finish(card)
                }
                let version: VCard.Version
                switch reader.peekVersion(until: "VCARD") {
                case "2.1"?, "2.0"?, "1.0"?: version = .v21
                case "4.0"?: version = .v40
                case nil: version = reader.peekLooksLikeVersion21(until: "VCARD") ? .v21 : .v30
                default: version = .v30
                }
                reader.keepsFoldWhitespace = version == .v21
                current = VCard(version: version, properties: [], location: line.location)
                reportedOutside = false
                continue
            }
            guard let card = current else {
                if !reportedOutside {
                    report(.textOutsideCard, at: line.location)
                    reportedOutside = true
                }
                continue
            }
            if isEnd, isCard {
                finish(card)
                current = nil
                continue
            }
            if line.name == "VERSION" {
                let written = plainValue(line)
                if !["2.1", "2.0", "1.0", "3.0", "4.0"].contains(written) {
                    report(.unknownVersion(written), at: line.valueLocation)
                }
                continue
            }
            // In place, so the card's property array is not copied line by line.
            current?.properties.append(line)
        }
        if let card = current {
            report(.missingEnd, at: card.location)
            finish(card)
        }
        if cards.isEmpty, !reportedOutside {
            report(.noCards, at: source.start)
        }
        return (cards, (reader.diagnostics + diagnostics).sortedByLocation())
    }

    /// A value with no escapes or encoding to speak of (`BEGIN`, `VERSION`), trimmed.
    static func plainValue(_ line: ContentLine) -> String {
        String(decoding: line.value, as: UTF8.self).trimmingWhitespace
    }
}
