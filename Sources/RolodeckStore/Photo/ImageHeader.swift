import RolodeckCore

/// What the first and last bytes of an image say: its format, whether it is whole, its size.
/// Read without decoding the image, which the build leaves to libvips when it writes the photo.
enum ImageHeader {
    /// The format the bytes start as; nil when they start as none of those a page can show.
    static func format(of bytes: [UInt8]) -> ContactPhoto.Format? {
        if starts(bytes, [0xff, 0xd8, 0xff]) { return .jpeg }
        if starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) { return .png }
        if starts(bytes, Array("GIF87a".utf8)) || starts(bytes, Array("GIF89a".utf8)) { return .gif }
        if starts(bytes, Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// Whether the image ends where its format says it does: a JPEG's end-of-image marker after
    /// its first scan, a PNG's `IEND` chunk, a GIF's trailer, as many bytes as a WebP's RIFF
    /// header counts. Padding after the end (zeros some phones add) is allowed.
    static func isComplete(_ bytes: [UInt8], format: ContactPhoto.Format) -> Bool {
        switch format {
        case .jpeg:
            return jpegScanEnd(bytes) != nil
        case .png:
            let tail = bytes.suffix(32)
            return tail.count >= 12 && contains(Array(tail), Array("IEND".utf8))
        case .gif:
            return bytes.last(where: { $0 != 0 }) == 0x3b && bytes.count > 13
        case .webp:
            guard bytes.count >= 12 else { return false }
            return bytes.count >= little32(bytes, 4) + 8
        }
    }

    /// The width and height in pixels that the header gives; nil when it gives none.
    static func dimensions(of bytes: [UInt8], format: ContactPhoto.Format) -> (Int, Int)? {
        switch format {
        case .jpeg:
            return jpegFrameSize(bytes)
        case .png:
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
            return (big32(bytes, 16), big32(bytes, 20))
        case .gif:
            guard bytes.count >= 10 else { return nil }
            return (little16(bytes, 6), little16(bytes, 8))
        case .webp:
            return webpSize(bytes)
        }
    }

    // MARK: - JPEG

    /// The segments of a JPEG up to its first scan, each as its marker and where its payload
    /// (after the length) starts and ends; nil when they run past the end of the bytes.
    private static func jpegSegments(_ bytes: [UInt8]) -> [(marker: UInt8, payload: Range<Int>)]? {
        var segments: [(marker: UInt8, payload: Range<Int>)] = []
        var offset = 2
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xff else { return nil }
            let marker = bytes[offset + 1]
            // Fill bytes before a marker.
            if marker == 0xff {
                offset += 1
                continue
            }
            // Markers without a payload.
            if marker == 0x01 || (0xd0...0xd7).contains(marker) {
                offset += 2
                continue
            }
            guard offset + 3 < bytes.count else { return nil }
            let length = big16(bytes, offset + 2)
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            segments.append((marker, offset + 4..<offset + 2 + length))
            if marker == 0xda { return segments }
            offset += 2 + length
        }
        return nil
    }

    /// Where the end-of-image marker after a JPEG's first scan is; nil when there is none.
    private static func jpegScanEnd(_ bytes: [UInt8]) -> Int? {
        guard let scan = jpegSegments(bytes)?.last, scan.marker == 0xda else { return nil }
        var offset = scan.payload.upperBound
        while offset + 1 < bytes.count {
            if bytes[offset] == 0xff, bytes[offset + 1] == 0xd9 { return offset }
            offset += 1
        }
        return nil
    }

    /// The size a JPEG's start-of-frame segment gives.
    private static func jpegFrameSize(_ bytes: [UInt8]) -> (Int, Int)? {
        // SOF0 to SOF15, but for DHT (C4), JPG (C8) and DAC (CC), which share the range.
        guard
            let frame = jpegSegments(bytes)?.first(where: {
                (0xc0...0xcf).contains($0.marker) && ![0xc4, 0xc8, 0xcc].contains($0.marker)
            }), frame.payload.count >= 5
        else { return nil }
        let start = frame.payload.lowerBound
        return (big16(bytes, start + 3), big16(bytes, start + 1))
    }

    // MARK: - WebP

    /// The canvas size of a WebP: from its `VP8X` header, or its only frame's (`VP8 ` lossy,
    /// `VP8L` lossless).
    private static func webpSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 30 else { return nil }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            guard Array(bytes[23..<26]) == [0x9d, 0x01, 0x2a] else { return nil }
            return (little16(bytes, 26) & 0x3fff, little16(bytes, 28) & 0x3fff)
        case "VP8L":
            guard bytes[20] == 0x2f else { return nil }
            let bits = little32(bytes, 21)
            return ((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1)
        case "VP8X":
            return (little24(bytes, 24) + 1, little24(bytes, 27) + 1)
        default:
            return nil
        }
    }

    // MARK: - Bytes

    private static func starts(_ bytes: [UInt8], _ prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && bytes.prefix(prefix.count).elementsEqual(prefix)
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    private static func big16(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    private static func big32(_ bytes: [UInt8], _ at: Int) -> Int {
        big16(bytes, at) << 16 | big16(bytes, at + 2)
    }

    private static func little16(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }

    private static func little24(_ bytes: [UInt8], _ at: Int) -> Int {
        little16(bytes, at) | Int(bytes[at + 2]) << 16
    }

    private static func little32(_ bytes: [UInt8], _ at: Int) -> Int {
        little16(bytes, at) | little16(bytes, at + 2) << 16
    }
}
