/// PNG files (RFC 2083) of 1-bit greyscale images, as QR codes need them, and their pieces: the
/// chunks, the zlib stream (RFC 1950) of stored deflate blocks (RFC 1951) that holds the pixels,
/// and the two checksums.
///
/// The image is written into one array sized up front, each row straight into its place, and
/// the checksums are taken over the bytes where they lie: a contact page's code is made on every
/// build, so the few microseconds a code matter at 100,000 contacts.
enum PNGChunk {
    /// The most pixel bytes one stored block holds, and so the image: one block keeps the rows
    /// contiguous in the file. A QR code of the largest version is 185 × 185 modules with its
    /// quiet zone, 4,625 bytes.
    static let maximumPixelBytes = 65_535

    /// A PNG of a `side` × `side` 1-bit greyscale image (1 white, 0 black, the leftmost pixel the
    /// highest bit of its byte), whose rows `fill` writes: it is given each row's number and its
    /// `(side + 7) / 8` bytes to fill, all of them. Each row's filter type is 0 (none).
    static func greyscaleImage(
        side: Int, fill: (_ row: Int, _ pixels: UnsafeMutableBufferPointer<UInt8>) -> Void
    ) -> [UInt8] {
        let rowBytes = (side + 7) / 8
        let pixelBytes = side * (rowBytes + 1)
        precondition(side > 0 && pixelBytes <= maximumPixelBytes, "a \(side)-pixel image is too large")
        // Signature 8, IHDR 12 + 13, IDAT 12 + zlib header 2 + block header 5 + pixels + Adler 4, IEND 12.
        let idatLength = 2 + 5 + pixelBytes + 4
        let count = 8 + 25 + 12 + idatLength + 12
        return [UInt8](unsafeUninitializedCapacity: count) { png, initialized in
            var at = 0
            func put(_ bytes: UInt8...) {
                for byte in bytes {
                    png[at] = byte
                    at += 1
                }
            }
            func put32(_ value: UInt32) {
                put(UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
            }
            func putCRC(from start: Int) {
                put32(crc32(UnsafeBufferPointer(rebasing: png[start..<at])))
            }
            put(0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A)
            put32(13)
            var start = at
            put(0x49, 0x48, 0x44, 0x52)  // IHDR
            put32(UInt32(side))
            put32(UInt32(side))
            // Bit depth 1, greyscale, deflate, adaptive filtering (each row says its own), no interlace.
            put(1, 0, 0, 0, 0)
            putCRC(from: start)
            put32(UInt32(idatLength))
            start = at
            put(0x49, 0x44, 0x41, 0x54)  // IDAT
            // CMF 0x78 (deflate, 32 KB window), FLG 0x01 (no dictionary; 0x7801 is a multiple of 31).
            put(0x78, 0x01)
            // The one block: final, stored; its length and the length's complement, little-endian.
            let length = UInt16(pixelBytes)
            put(1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8))
            let pixelStart = at
            for row in 0..<side {
                png[at] = 0
                fill(row, UnsafeMutableBufferPointer(rebasing: png[at + 1..<at + 1 + rowBytes]))
                at += 1 + rowBytes
            }
            put32(adler32(UnsafeBufferPointer(rebasing: png[pixelStart..<at])))
            putCRC(from: start)
            put32(0)
            start = at
            put(0x49, 0x45, 0x4E, 0x44)  // IEND
            putCRC(from: start)
            initialized = at
        }
    }

    /// The CRC-32 (ISO 3309, reflected, polynomial 0xEDB88320) of `bytes`, eight bytes a step
    /// through eight tables ("slicing by 8"): a byte at a time, a code's 0.9 KB took 6,000
    /// instructions.
    static func crc32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        crcTables.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            var index = 0
            let raw = UnsafeRawBufferPointer(bytes)
            while index + 8 <= bytes.count {
                let low = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int(high >> 8 & 0xFF)]
                    ^ table[256 + Int(high >> 16 & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < bytes.count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ crc >> 8
                index += 1
            }
            return ~crc
        }
    }

    /// The CRC-32 of `bytes`.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { crc32($0) }
    }

    /// Table `k` (256 entries from `k * 256`) gives the CRC of a byte followed by `k` zero bytes.
    private static let crcTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ crc >> 1 : crc >> 1 }
            tables[index] = crc
        }
        for k in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(k - 1) * 256 + index]
                tables[k * 256 + index] = tables[Int(previous & 0xFF)] ^ previous >> 8
            }
        }
        return tables
    }()

    /// The Adler-32 of `bytes`: its two sums modulo 65,521, taken every 5,552 bytes (the most
    /// that cannot overflow 32 bits).
    static func adler32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 5_552)
            for index in start..<end {
                a &+= UInt32(bytes[index])
                b &+= a
            }
            a %= 65_521
            b %= 65_521
            start = end
        }
        return b << 16 | a
    }

    /// The Adler-32 of `bytes`.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { adler32($0) }
    }
}
