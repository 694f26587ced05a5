/// The Reed-Solomon error correction codewords of QR codes: arithmetic in GF(256) modulo
/// x⁸ + x⁴ + x³ + x² + 1 (0x11D), generator polynomials with roots α⁰ … αⁿ⁻¹ (ISO/IEC 18004
/// section 7.5.2).
enum ReedSolomon {
    /// αⁱ for i from 0 to 509, twice round the field, so that a sum of two logarithms needs no
    /// reduction modulo 255.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for power in 0..<255 {
            table[power] = UInt8(value)
            table[power + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// The power of α that gives each non-zero byte (entry 0 is unused).
    static let logarithms: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for power in 0..<255 { table[Int(exponents[power])] = UInt8(power) }
        return table
    }()

    /// The product of two field elements.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return exponents[Int(logarithms[Int(a)]) + Int(logarithms[Int(b)])]
    }

    /// The generator polynomial of `count` error correction codewords, (x - α⁰) … (x - αⁿ⁻¹),
    /// without its leading 1: the coefficients of xⁿ⁻¹ down to x⁰.
    static func generator(count: Int) -> [UInt8] {
        // Coefficients from the highest power down, the leading 1 included while multiplying.
        var polynomial: [UInt8] = [1]
        for root in 0..<count {
            let alpha = exponents[root]
            var product = polynomial + [0]
            for index in 1..<product.count { product[index] ^= multiply(polynomial[index - 1], alpha) }
            polynomial = product
        }
        return Array(polynomial.dropFirst())
    }

    /// The counts of error correction codewords a block has at level M: 10 to 30.
    static let levelMCounts = Set((1...40).map { QRVersion(number: $0).errorCorrectionPerBlock })

    /// For each count of error correction codewords used at level M, the generator polynomial
    /// times every byte: entry `4 * f + i` is word `i` of f × the generator, its coefficients
    /// big-endian from the highest (the first codeword) in four 64-bit words.
    ///
    /// With these, one data byte costs four shifts and four XORs of the whole remainder instead
    /// of one field multiplication for each of its up to 30 codewords. 8 KB a count.
    private static let products: [[UInt64]] = (0...30).map { count in
        guard levelMCounts.contains(count) else { return [] }
        let generator = generator(count: count)
        var table = [UInt64](repeating: 0, count: 256 * 4)
        // The product is linear in f: the rows of the eight powers of two, then every other f
        // as its lowest bit's row XOR the row of the rest.
        for bit in 0..<8 {
            let factor = UInt8(1 << bit)
            for (index, coefficient) in generator.enumerated() {
                let product = UInt64(multiply(coefficient, factor))
                table[4 * Int(factor) + index / 8] |= product << (56 - 8 * (index % 8))
            }
        }
        for f in 1..<256 where f & (f - 1) != 0 {
            let lowest = f & -f
            for word in 0..<4 {
                table[4 * f + word] = table[4 * lowest + word] ^ table[4 * (f ^ lowest) + word]
            }
        }
        return table
    }

    /// Writes the `count` error correction codewords of `data` to `output`, `stride` bytes
    /// apart (the number of blocks, so that they land interleaved). `count` is one of level M's.
    static func encode(
        _ data: UnsafeBufferPointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        // The remainder of data × xⁿ divided by the generator, kept as its 30 coefficients
        // big-endian in four words: the first codeword in the top byte of r0.
        var r0: UInt64 = 0, r1: UInt64 = 0, r2: UInt64 = 0, r3: UInt64 = 0
        products[count].withUnsafeBufferPointer { products in
            let products = products.baseAddress!
            for byte in data {
                let row = products + 4 * Int(byte ^ UInt8(truncatingIfNeeded: r0 &>> 56))
                r0 = (r0 &<< 8 | r1 &>> 56) ^ row[0]
                r1 = (r1 &<< 8 | r2 &>> 56) ^ row[1]
                r2 = (r2 &<< 8 | r3 &>> 56) ^ row[2]
                r3 = r3 &<< 8 ^ row[3]
            }
        }
        var target = output
        func write(_ word: UInt64, from first: Int) {
            var word = word
            for _ in first..<max(first, min(count, first + 8)) {
                target.pointee = UInt8(truncatingIfNeeded: word &>> 56)
                word &<<= 8
                target += stride
            }
        }
        write(r0, from: 0)
        write(r1, from: 8)
        write(r2, from: 16)
        write(r3, from: 24)
    }
}
