import ByteKernels

/// Finds the places where bytes are not well-formed UTF-8.
public enum UTF8Validator {
    /// Byte offsets of the first byte of each ill-formed sequence, at most `limit` of them.
    public static func invalidOffsets(in bytes: [UInt8], limit: Int = 20) -> [Int] {
        var offsets: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            // Nearly all text is well-formed: `check` says so eight bytes a step, where the walk
            // below takes one (a tenth of `rolodeck check` of a store of 100,000 files).
            guard !check(buffer).isWellFormed else { return }
            var index = 0
            let count = buffer.count
            while index < count, offsets.count < limit {
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                let length = sequenceLength(buffer, at: index)
                if length == 0 {
                    offsets.append(index)
                    index += 1
                } else {
                    index += length
                }
            }
        }
        return offsets
    }

    /// Whether `bytes` are well-formed UTF-8 (as `invalidOffsets` finds no offset in them), and
    /// whether they are all ASCII. Runs of ASCII are passed over eight bytes at a time and runs of
    /// other scalars a sequence at a time, so this costs a fraction of the standard library's
    /// check, which a String made from checked bytes can then skip.
    public static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> (isWellFormed: Bool, isASCII: Bool) {
        guard let base = bytes.baseAddress else { return (true, true) }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        var index = 0
        var isASCII = true
        while index < count {
            if index + 8 <= count {
                let high = ByteWord.nonASCIIBytes(in: ByteWord.load(raw, at: index))
                if high == 0 {
                    index += 8
                    continue
                }
                index += ByteWord.firstMarked(high)
            } else if base[index] < 0x80 {
                index += 1
                continue
            }
            isASCII = false
            // Text in other scripts is mostly sequence after sequence: stay here until ASCII.
            repeat {
                // Three-byte sequences (CJK text) are checked as one word when a fourth byte
                // follows: a lead E0...EF, two continuation bytes, and not an overlong (E0 with a
                // second byte below A0) or a surrogate (ED with a second byte from A0): by the lead's
                // low bits and bit 5 of the second byte (set exactly from A0 in 80...BF).
                if index + 4 <= count {
                    let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self))
                    let marks = word & 0x200F
                    if word & 0xC0_C0F0 == 0x80_80E0, marks != 0, marks != 0x200D {
                        index += 3
                        continue
                    }
                }
                let lead = base[index]
                switch lead {
                case 0xC2...0xDF:
                    guard index + 1 < count, base[index + 1] & 0xC0 == 0x80 else { return (false, false) }
                    index += 2
                case 0xE0...0xEF:
                    // Table 3-7: after E0 no overlong forms, after ED no surrogates.
                    guard index + 2 < count else { return (false, false) }
                    let second = base[index + 1]
                    let lowest: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                    let highest: UInt8 = lead == 0xED ? 0x9F : 0xBF
                    guard second >= lowest, second <= highest, base[index + 2] & 0xC0 == 0x80 else {
                        return (false, false)
                    }
                    index += 3
                default:
                    let length = sequenceLength(bytes, at: index)
                    if length == 0 { return (false, false) }
                    index += length
                }
            } while index < count && base[index] >= 0x80
        }
        return (true, isASCII)
    }

    /// The length of the well-formed sequence starting at `index`, or 0 if there is none
    /// (Unicode Table 3-7: no overlongs, no surrogates, nothing above U+10FFFF).
    private static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = buffer[index]
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < buffer.count && range.contains(buffer[index + offset])
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }
}
