/// Splits template source into text and tag tokens, following set-delimiter tags.
struct Tokenizer {
    private let bytes: [UInt8]
    private var openDelimiter = Array("{{".utf8)
    private var closeDelimiter = Array("}}".utf8)
    private var tokens: [Token] = []
    private var position = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Tokenizes `bytes`; text tokens never extend past a newline.
    static func tokenize(_ bytes: [UInt8]) throws(ParseIssue) -> [Token] {
        var tokenizer = Tokenizer(bytes: bytes)
        try tokenizer.run()
        return tokenizer.tokens
    }

    private mutating func run() throws(ParseIssue) {
        while position < bytes.count {
            guard let tagStart = bytes.find(openDelimiter, from: position) else {
                appendText(from: position, to: bytes.count)
                return
            }
            appendText(from: position, to: tagStart)
            try scanTag(at: tagStart)
        }
    }

    private mutating func appendText(from start: Int, to end: Int) {
        var lineStart = start
        var index = start
        while index < end {
            if bytes[index] == Byte.newline {
                tokens.append(Token(kind: .text, start: lineStart, end: index + 1))
                lineStart = index + 1
            }
            index += 1
        }
        if lineStart < end {
            tokens.append(Token(kind: .text, start: lineStart, end: end))
        }
    }

    private mutating func scanTag(at tagStart: Int) throws(ParseIssue) {
        let contentStart = tagStart + openDelimiter.count
        if contentStart < bytes.count, bytes[contentStart] == Byte.openBrace {
            try scanTripleMustache(at: tagStart, contentStart: contentStart + 1)
            return
        }
        var sigilIndex = contentStart
        while sigilIndex < bytes.count, Byte.isWhitespace(bytes[sigilIndex]) { sigilIndex += 1 }
        if sigilIndex < bytes.count, bytes[sigilIndex] == Byte.equals {
            try scanSetDelimiters(at: tagStart, contentStart: sigilIndex + 1)
            return
        }
        guard let closeIndex = bytes.find(closeDelimiter, from: contentStart) else {
            throw ParseIssue(reason: .unclosedTag(expectedDelimiter: closeDelimiter.text), offset: tagStart)
        }
        let end = closeIndex + closeDelimiter.count
        position = end
        guard sigilIndex < closeIndex else {
            throw ParseIssue(reason: .emptyTagName, offset: tagStart)
        }
        let kind: TokenKind
        var nameStart = sigilIndex + 1
        switch bytes[sigilIndex] {
        case Byte.bang:
            tokens.append(Token(kind: .comment, start: tagStart, end: end))
            return
        case Byte.hash: kind = .section
        case Byte.caret: kind = .invertedSection
        case Byte.slash: kind = .close
        case Byte.greaterThan: kind = .partial
        case Byte.lessThan: kind = .parent
        case Byte.dollar: kind = .block
        case Byte.ampersand: kind = .variable(escaped: false)
        default:
            kind = .variable(escaped: true)
            nameStart = sigilIndex
        }
        var token = Token(kind: kind, start: tagStart, end: end)
        try readName(into: &token, from: nameStart, to: closeIndex)
        tokens.append(token)
    }

    private mutating func scanTripleMustache(at tagStart: Int, contentStart: Int) throws(ParseIssue) {
        let closing = [Byte.closeBrace] + closeDelimiter
        guard let closeIndex = bytes.find(closing, from: contentStart) else {
            throw ParseIssue(reason: .unclosedTag(expectedDelimiter: closing.text), offset: tagStart)
        }
        var token = Token(kind: .variable(escaped: false), start: tagStart, end: closeIndex + closing.count)
        try readName(into: &token, from: contentStart, to: closeIndex)
        tokens.append(token)
        position = token.end
    }

    /// Validates and stores the tag name found in `start..<end`.
    private func readName(into token: inout Token, from start: Int, to end: Int) throws(ParseIssue) {
        let raw = bytes[start..<end]
        if raw.find(openDelimiter) != nil {
            // A second opening delimiter inside a tag almost always means the first tag lacks its end.
            throw ParseIssue(
                reason: .unclosedTag(expectedDelimiter: closeDelimiter.text), offset: token.start)
        }
        var name = raw.trimmingWhitespace()
        let allowsDynamic = token.kind == .partial || token.kind == .parent || token.kind == .close
        if allowsDynamic, name.first == Byte.asterisk {
            name = name.dropFirst().trimmingWhitespace()
            token.isDynamic = token.kind != .close
            try validate(name, dotted: true, token: token)
            token.name = "*" + name.text
            return
        }
        let dotted = token.kind == .section || token.kind == .invertedSection || token.kind.isVariable
        try validate(name, dotted: dotted, token: token)
        token.name = name.text
    }

    private func validate(_ name: ArraySlice<UInt8>, dotted: Bool, token: Token) throws(ParseIssue) {
        guard !name.isEmpty else { throw ParseIssue(reason: .emptyTagName, offset: token.start) }
        let hasWhitespace = name.contains(where: Byte.isWhitespace)
        let hasEmptyPart =
            dotted && name.count > 1
            && name.split(separator: Byte.dot, omittingEmptySubsequences: false).contains(where: \.isEmpty)
        if hasWhitespace || hasEmptyPart {
            throw ParseIssue(reason: .invalidTagName(name.text), offset: token.start)
        }
    }

    private mutating func scanSetDelimiters(at tagStart: Int, contentStart: Int) throws(ParseIssue) {
        guard let closeIndex = bytes.find(closeDelimiter, from: contentStart) else {
            throw ParseIssue(reason: .unclosedTag(expectedDelimiter: closeDelimiter.text), offset: tagStart)
        }
        let content = bytes[contentStart..<closeIndex].trimmingWhitespace()
        var end = closeIndex + closeDelimiter.count
        var delimiters: (open: [UInt8], close: [UInt8])
        if content.last == Byte.equals {
            delimiters = try parseDelimiters(content.dropLast(), tagStart: tagStart)
        } else if let alternative = bytes.find([Byte.equals] + closeDelimiter, from: contentStart),
            let parsed = try? parseDelimiters(bytes[contentStart..<alternative], tagStart: tagStart)
        {
            // The new delimiters may contain the current closing delimiter, as in {{={{ }}=}}.
            delimiters = parsed
            end = alternative + 1 + closeDelimiter.count
        } else {
            throw ParseIssue(reason: .delimiterTagMissingEquals, offset: tagStart)
        }
        tokens.append(Token(kind: .setDelimiters, start: tagStart, end: end))
        openDelimiter = delimiters.open
        closeDelimiter = delimiters.close
        position = end
    }

    private func parseDelimiters(
        _ content: ArraySlice<UInt8>, tagStart: Int
    ) throws(ParseIssue) -> (open: [UInt8], close: [UInt8]) {
        let parts = content.split(whereSeparator: Byte.isWhitespace)
        guard parts.count == 2 else {
            throw ParseIssue(reason: .wrongDelimiterCount(parts.count), offset: tagStart)
        }
        for part in parts where part.contains(Byte.equals) {
            throw ParseIssue(reason: .invalidDelimiter(part.text), offset: tagStart)
        }
        return (Array(parts[0]), Array(parts[1]))
    }
}

extension TokenKind {
    /// Whether this is an interpolation tag.
    fileprivate var isVariable: Bool {
        if case .variable = self { return true }
        return false
    }
}
