/// Encodes bytes as a QR code in byte mode at error correction level M with mask pattern 2, module
/// for module the code libqrencode 4.1 made for them (`QRinput_new2(0, QR_ECLEVEL_M)`, the ECI
/// header when asked, `QRcode_encodeMask(input, 2)`): same version, same bit stream and padding,
/// same blocks and interleaving, same mask and format information. The site's pages and their
/// snapshots stay byte for byte what they were; RolodeckSiteTests compares the two encoders.
///
/// Always mask pattern 2 (every third column). Choosing the best of the eight by the standard's
/// penalty score, as libqrencode does by default, took 13 times as long as the rest of the
/// encoding and made a 20,000-contact build take twelve times the CPU; any mask gives a valid
/// code, and the penalty only steers away from patterns that make some readers slower. zbarimg
/// reads every code of the demo with pattern 2 (Tests/Export/check_exports.py).
///
/// A fifteenth of libqrencode's instructions (19,000 a code against 292,000 in a cold build of
/// 10,000 contacts, where libqrencode was 37 % of the whole): the function patterns, the mask and
/// where each bit goes are worked out once a version (`QRTemplate`), each XOR places two modules,
/// and the Reed-Solomon codewords take one table lookup a data byte (docs/performance.md).
enum QREncoder {
    /// The modules of `bytes` as a code: its width and its rows of bits (`QRCode`'s layout), or
    /// nil when the bytes are empty or fit in no version. `markedUTF8` puts ECI designator 26
    /// (UTF-8) before them.
    static func encode(_ bytes: [UInt8], markedUTF8: Bool) -> (width: Int, rows: [UInt64])? {
        guard !bytes.isEmpty, let version = version(byteCount: bytes.count, markedUTF8: markedUTF8) else {
            return nil
        }
        let template = QRTemplate.of(version)
        // The data codewords, then all the codewords in symbol order (to a whole number of 64-bit
        // words), in one scratch buffer on the stack: as arrays, an allocation and a metadata
        // lookup each, they were a seventh of the encoding.
        let dataCount = version.dataCodewords
        let streamCount = 8 * (version.codewords / 8 + 1)
        let rows = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: dataCount + streamCount) {
            scratch in
            let data = UnsafeMutableBufferPointer(rebasing: scratch[..<dataCount])
            let stream = UnsafeMutableBufferPointer(rebasing: scratch[dataCount...])
            writeDataCodewords(bytes, markedUTF8: markedUTF8, version: version, to: data)
            writeInterleavedCodewords(UnsafeBufferPointer(data), version, to: stream)
            return place(UnsafeRawPointer(stream.baseAddress!), template)
        }
        return (template.width, rows)
    }

    /// The template's modules with the codeword bits at `stream` XORed in along its runs; the
    /// codewords are read as big-endian 64-bit words, so zeros follow them to a whole word.
    private static func place(_ stream: UnsafeRawPointer, _ template: QRTemplate) -> [UInt64] {
        var rows = template.rows
        rows.withUnsafeMutableBufferPointer { rows in
            let rows = rows.baseAddress!
            for run in template.runs {
                // The run's bits at the top of `bits`; each row takes the top one or two, moved
                // down to their columns.
                var bits =
                    UInt64(
                        bigEndian: stream.loadUnaligned(
                            fromByteOffset: Int(run.bit >> 6) * 8, as: UInt64.self))
                    &<< UInt64(run.bit & 63)
                let down = UInt64(run.down), mask = run.mask, step = Int(run.step)
                var row = rows + Int(run.word)
                if run.bitsPerRow == 2 {
                    for _ in 0..<run.count {
                        row.pointee ^= (bits &>> down) & mask
                        bits &<<= 2
                        row += step
                    }
                } else {
                    for _ in 0..<run.count {
                        row.pointee ^= (bits &>> down) & mask
                        bits &<<= 1
                        row += step
                    }
                }
            }
        }
        return rows
    }

    /// Whether any byte is 0x80 or above; eight at a time.
    static func containsNonASCII(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { bytes in
            var any: UInt64 = 0
            var index = 0
            while index + 8 <= bytes.count {
                any |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < bytes.count {
                any |= UInt64(bytes[index])
                index += 1
            }
            return any & 0x8080_8080_8080_8080 != 0
        }
    }

    /// The version libqrencode chooses for `count` bytes, or nil when they fit in none.
    ///
    /// Mostly the smallest that holds them, but libqrencode starts from an estimate that counts
    /// the ECI header 16 bits longer than it is (it charges each of the header's four stored
    /// bytes 4 bits, as if each were a segment with a mode indicator), and never goes below it:
    /// marked bytes within two of a version's capacity get the next version.
    static func version(byteCount count: Int, markedUTF8: Bool) -> QRVersion? {
        /// The bits the stream takes at `version` before padding.
        func bits(_ version: QRVersion) -> Int {
            (markedUTF8 ? 12 : 0) + 4 + version.byteCountBits + 8 * count
        }
        /// libqrencode's estimate at version `number` (0: none chosen yet, counted as 1): the
        /// bytes cut into segments the count field can hold, each with mode and count.
        func estimate(_ number: Int) -> Int {
            let countBits = QRVersion(number: max(number, 1)).byteCountBits
            let segments = (count + (1 << countBits) - 1) >> countBits
            return 8 * count + segments * (4 + countBits) + (markedUTF8 ? 28 : 0)
        }
        var number = 0
        var previous: Int
        repeat {
            previous = number
            number = QRVersion.smallest(holding: estimate(previous)).number
            if previous == 0 && number > 1 { number -= 1 }
        } while number > previous
        // Then up from the estimate until the real stream fits. Beyond 255 bytes, which versions
        // 1 to 9 would split into two segments, the estimate is already 10 or more.
        var version = QRVersion(number: number)
        while true {
            let needed = QRVersion.smallest(holding: bits(version))
            guard needed.number > version.number else { break }
            version = needed
        }
        return bits(version) <= 8 * version.dataCodewords ? version : nil
    }

    /// The data codewords: the ECI designator when marked (mode 0111, designator 26 in 8 bits),
    /// byte mode (0100), the count, the bytes, up to four 0 bits of terminator to the next
    /// codeword, then 0xEC and 0x11 in turn to the version's capacity.
    static func writeDataCodewords(
        _ bytes: [UInt8], markedUTF8: Bool, version: QRVersion,
        to codewords: UnsafeMutableBufferPointer<UInt8>
    ) {
        let capacity = codewords.count, count = bytes.count
        let countBits = version.byteCountBits
        let header = (markedUTF8 ? 0b0111_0001_1010_0100 : 0b0100) << countBits | count
        let headerBits = (markedUTF8 ? 16 : 4) + countBits
        let whole = headerBits / 8
        for index in 0..<whole {
            codewords[index] = UInt8(truncatingIfNeeded: header >> (headerBits - 8 * (index + 1)))
        }
        let output = UnsafeMutableRawPointer(codewords.baseAddress! + whole)
        bytes.withUnsafeBytes { bytes in
            if headerBits % 8 == 0 {
                output.copyMemory(from: bytes.baseAddress!, byteCount: count)
                // The terminator, when there is room for it: a whole codeword of 0 bits.
                if whole + count < capacity { codewords[whole + count] = 0 }
            } else {
                // Half a codeword of header left: each byte straddles two codewords, and the last
                // codeword ends with the terminator's four 0 bits. Eight bytes at a time.
                var carry = UInt64(header & 0xF)
                var index = 0
                while index + 8 <= count {
                    let word = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    output.storeBytes(
                        of: (carry << 60 | word >> 4).bigEndian, toByteOffset: index, as: UInt64.self)
                    carry = word & 0xF
                    index += 8
                }
                while index < count {
                    codewords[whole + index] = UInt8(carry << 4) | bytes[index] >> 4
                    carry = UInt64(bytes[index] & 0xF)
                    index += 1
                }
                codewords[whole + count] = UInt8(carry << 4)
            }
        }
        let used = min(capacity, (headerBits + 8 * count + 4 + 7) / 8)
        for index in used..<capacity { codewords[index] = (index - used) % 2 == 0 ? 0xEC : 0x11 }
    }

    /// The data codewords and their error correction codewords in the order they go in the
    /// symbol (ISO/IEC 18004 section 7.6): the first data codeword of each block, then the
    /// second, …, then the error correction codewords the same way; zeros to the end of `output`.
    static func writeInterleavedCodewords(
        _ data: UnsafeBufferPointer<UInt8>, _ version: QRVersion, to buffer: UnsafeMutableBufferPointer<UInt8>
    ) {
        let blocks = version.blocks, shortBlocks = version.shortBlocks, length = version.shortBlockLength
        let codewords = version.codewords
        let output = buffer.baseAddress!
        var start = data.baseAddress!
        for block in 0..<blocks {
            let count = block < shortBlocks ? length : length + 1
            var target = output + block
            for index in 0..<length {
                target.pointee = start[index]
                target += blocks
            }
            // The long blocks' last codewords come after every block's first `length`.
            if count > length { output[length * blocks + block - shortBlocks] = start[length] }
            ReedSolomon.encode(
                UnsafeBufferPointer(start: start, count: count), count: version.errorCorrectionPerBlock,
                into: output + data.count + block, stride: blocks)
            start += count
        }
        (output + codewords).initialize(repeating: 0, count: buffer.count - codewords)
    }
}
