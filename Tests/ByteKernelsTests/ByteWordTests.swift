import Testing
@testable import ByteKernels

/// The word-at-a-time tests against the byte-by-byte tests they stand for.
@Suite struct ByteWordTests {
    /// A word test and the byte test it must agree with.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let marks: @Sendable (UInt64) -> UInt64
        let matches: @Sendable (UInt8) -> Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "zero bytes", marks: ByteWord.zeroBytes, matches: { $0 == 0 }),
        Case(name: "quotes", marks: { ByteWord.bytes(equalTo: 0x22, in: $0) }, matches: { $0 == 0x22 }),
        Case(name: "0xFF", marks: { ByteWord.bytes(equalTo: 0xFF, in: $0) }, matches: { $0 == 0xFF }),
        Case(name: "0x80", marks: { ByteWord.bytes(equalTo: 0x80, in: $0) }, matches: { $0 == 0x80 }),
        Case(name: "below 0x20", marks: { ByteWord.bytes(below: 0x20, in: $0) }, matches: { $0 < 0x20 }),
        Case(name: "below 0x01", marks: { ByteWord.bytes(below: 0x01, in: $0) }, matches: { $0 < 0x01 }),
        Case(name: "below 0x80", marks: { ByteWord.bytes(below: 0x80, in: $0) }, matches: { $0 < 0x80 }),
        Case(name: "not ASCII", marks: ByteWord.nonASCIIBytes, matches: { $0 >= 0x80 }),
        Case(
            name: "HTML's special bytes",
            marks: { word in
                [0x22, 0x26, 0x27, 0x3C, 0x3E].reduce(0) { $0 | ByteWord.bytes(equalTo: $1, in: word) }
            },
            matches: { [0x22, 0x26, 0x27, 0x3C, 0x3E].contains($0) }),
    ]

    /// The word of eight bytes, the first lowest.
    static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    @Test(
        "Every byte value at every position of a word: marked exactly when it passes",
        arguments: cases)
    func everyByteAtEveryPosition(_ test: Case) {
        var inputs = KernelInputs()
        for value in KernelInputs.allBytes {
            for position in 0..<8 {
                // Around it, bytes that pass nothing but the byte's neighbours, then random ones.
                var bytes = [UInt8](repeating: test.matches(0x41) ? 0xC1 : 0x41, count: 8)
                bytes[position] = value
                checkLowestMark(test, bytes)
                for index in 0..<8 where index != position { bytes[index] = UInt8(inputs.next(256)) }
                checkLowestMark(test, bytes)
            }
        }
    }

    @Test(
        "Random words: any mark exactly when a byte passes, the lowest one exact",
        arguments: cases)
    func randomWords(_ test: Case) {
        var inputs = KernelInputs(seed: 7)
        for _ in 0..<20_000 {
            let word = inputs.word()
            checkLowestMark(test, withUnsafeBytes(of: word.littleEndian, Array.init))
        }
    }

    /// Whether `test`'s marks on `bytes` say what the byte test says: some mark exactly when a
    /// byte passes, and the lowest mark on the first byte that does.
    private func checkLowestMark(_ test: Case, _ bytes: [UInt8]) {
        let marks = test.marks(Self.word(bytes))
        let first = bytes.firstIndex(where: test.matches)
        #expect((marks != 0) == (first != nil), "\(test.name): \(bytes)")
        #expect(marks & ~ByteWord.highBits == 0, "\(test.name): marks outside the high bits")
        if let first, marks != 0 {
            #expect(ByteWord.firstMarked(marks) == first, "\(test.name): \(bytes)")
        }
    }

    @Test(
        "The first marked byte in a buffer: every length, start, alignment and position",
        arguments: cases)
    func firstIndex(_ test: Case) {
        var inputs = KernelInputs(seed: 11)
        let plain = KernelInputs.allBytes.filter { !test.matches($0) }
        let passing = KernelInputs.allBytes.filter(test.matches)
        for length in KernelInputs.lengths {
            let filler = inputs.bytes(length, from: plain)
            // None, each position alone, and each with a second passing byte after it (whose
            // borrow must not move the first).
            var inputsOfLength = [filler]
            for position in 0..<length {
                var one = filler
                one[position] = passing[inputs.next(passing.count)]
                inputsOfLength.append(one)
                if position + 1 < length {
                    one[position + 1 + inputs.next(length - position - 1)] =
                        passing[inputs.next(passing.count)]
                    inputsOfLength.append(one)
                }
            }
            inputsOfLength.append(inputs.bytes(length))
            for bytes in inputsOfLength {
                let offset = inputs.next(8)
                for start in 0...length + 2 {
                    let expected = Reference.firstIndex(bytes, from: start, where: test.matches)
                    let found = KernelInputs.withBytes(bytes, at: offset) {
                        ByteWord.firstIndex(in: UnsafeBufferPointer($0), from: start, marked: test.marks)
                    }
                    #expect(found == expected, "\(test.name): \(bytes) from \(start)")
                }
            }
        }
    }

    @Test("1 to 8 bytes are read as one word, the first lowest, zeros above")
    func loadsShortRuns() {
        var inputs = KernelInputs(seed: 13)
        for count in 1...8 {
            for offset in 0..<8 {
                let bytes = inputs.bytes(count)
                let word = KernelInputs.withBytes(bytes, at: offset) {
                    ByteWord.load(UnsafeRawPointer($0.baseAddress!), count: count)
                }
                #expect(word == Self.word(bytes), "\(bytes) at offset \(offset)")
            }
        }
    }

    @Test("An empty buffer without memory is scanned to its start")
    func emptyBuffer() {
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        #expect(ByteWord.firstIndex(in: empty, from: 0, marked: ByteWord.zeroBytes) == 0)
        #expect(ByteWord.firstIndex(in: empty, from: 3, marked: ByteWord.zeroBytes) == 3)
    }
}
