/// Applies the spec's standalone-line rules: a line holding only whitespace and one
/// standalone-capable tag (or one of the inheritance tag pairs) is removed from the output.
enum StandaloneLines {
    /// Marks standalone tags and drops the whitespace and newline of their lines.
    static func apply(to tokens: inout [Token], source bytes: [UInt8]) {
        matchClosingTags(&tokens)
        var lineStart = 0
        while lineStart < tokens.count {
            var lineEnd = lineStart
            while lineEnd < tokens.count {
                let token = tokens[lineEnd]
                lineEnd += 1
                if token.kind == .text, bytes[token.end - 1] == Byte.newline { break }
            }
            analyzeLine(lineStart..<lineEnd, in: &tokens, source: bytes)
            lineStart = lineEnd
        }
    }

    /// Records for each closing tag the kind of tag it closes, so tag pairs can be recognized.
    private static func matchClosingTags(_ tokens: inout [Token]) {
        var open: [(kind: TokenKind, name: String)] = []
        for index in tokens.indices {
            switch tokens[index].kind {
            case .section, .invertedSection, .parent, .block:
                open.append((tokens[index].kind, tokens[index].name))
            case .close:
                if let last = open.last, last.name == tokens[index].name {
                    tokens[index].closes = last.kind
                    open.removeLast()
                }
            default:
                break
            }
        }
    }

    private static func analyzeLine(_ line: Range<Int>, in tokens: inout [Token], source bytes: [UInt8]) {
        var tags: [Int] = []
        for index in line {
            if tokens[index].kind == .text {
                guard isBlankText(tokens[index], source: bytes) else { return }
            } else {
                tags.append(index)
                if tags.count > 2 { return }
            }
        }
        guard let first = tags.first, tokens[first].kind.canStandAlone else { return }
        if tags.count == 2 {
            let pair = (tokens[first], tokens[tags[1]])
            if isBlockPair(pair) {
                markStandalone(line, tags: tags, keepingNewline: true, in: &tokens, source: bytes)
            } else if isParentPair(pair) {
                markStandalone(line, tags: tags, keepingNewline: false, in: &tokens, source: bytes)
            }
            return
        }
        markStandalone(line, tags: tags, keepingNewline: false, in: &tokens, source: bytes)
    }

    /// `{{<parent}}{{/parent}}`, `{{<parent}}{{$block}}` or `{{/block}}{{/parent}}` on one line.
    private static func isParentPair(_ pair: (Token, Token)) -> Bool {
        switch (pair.0.kind, pair.1.kind) {
        case (.parent, .block): return true
        case (.parent, .close): return pair.1.closes == .parent && pair.0.name == pair.1.name
        case (.close, .close): return pair.0.closes == .block && pair.1.closes == .parent
        default: return false
        }
    }

    /// `{{$block}}{{/block}}` with nothing in between: standalone, but the newline stays.
    private static func isBlockPair(_ pair: (Token, Token)) -> Bool {
        pair.0.kind == .block && pair.1.kind == .close && pair.1.closes == .block
            && pair.0.name == pair.1.name && pair.0.end == pair.1.start
    }

    private static func markStandalone(
        _ line: Range<Int>, tags: [Int], keepingNewline: Bool, in tokens: inout [Token], source bytes: [UInt8]
    ) {
        var indentation: [UInt8] = []
        if tokens[line.lowerBound].kind == .text {
            let leading = tokens[line.lowerBound]
            indentation = Array(bytes[leading.start..<leading.end])
        }
        for index in tags {
            tokens[index].isStandalone = true
            tokens[index].indentation = indentation
        }
        for index in line where tokens[index].kind == .text {
            let token = tokens[index]
            if keepingNewline, index == line.upperBound - 1, bytes[token.end - 1] == Byte.newline {
                let crlf = token.end - token.start >= 2 && bytes[token.end - 2] == Byte.carriageReturn
                tokens[index].start = token.end - (crlf ? 2 : 1)
            } else {
                tokens[index].isDropped = true
            }
        }
    }

    /// Whether a text token holds only spaces and tabs, plus the line's newline if it ends the line.
    private static func isBlankText(_ token: Token, source bytes: [UInt8]) -> Bool {
        var end = token.end
        if bytes[end - 1] == Byte.newline {
            end -= 1
            if end > token.start, bytes[end - 1] == Byte.carriageReturn { end -= 1 }
        }
        for index in token.start..<end where !Byte.isBlank(bytes[index]) {
            return false
        }
        return true
    }
}
