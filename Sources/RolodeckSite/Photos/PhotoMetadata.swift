import RolodeckCore

/// Takes the metadata out of a photo without touching its pixels: EXIF (with its GPS position,
/// camera and dates), XMP, IPTC and comments, which a published directory must not leak. The
/// image data itself is copied byte for byte, so a photo without metadata is written unchanged
/// and one with it loses nothing else.
///
/// What each format keeps: a JPEG its JFIF header, colour profile (APP2 `ICC_PROFILE`) and Adobe
/// colour transform (APP14, without which CMYK JPEGs decode wrongly); a PNG every chunk but its
/// text, EXIF and time chunks; a WebP every chunk but `EXIF` and `XMP `; a GIF every block but
/// comments and application extensions other than the looping one (`NETSCAPE2.0`).
enum PhotoMetadata {
    /// What stripping a photo gave.
    enum Stripped {
        /// The bytes without metadata.
        case bytes([UInt8])
        /// A JPEG whose EXIF turns the picture (an orientation, 2 to 8, other than upright),
        /// which the bytes alone cannot keep once the EXIF is gone: it is made upright by
        /// libvips instead.
        case turned(orientation: Int)
    }

    /// The photo's bytes without metadata, or the orientation of a turned JPEG.
    static func stripped(_ bytes: [UInt8], format: ContactPhoto.Format) -> Stripped {
        switch format {
        case .jpeg: return strippedJPEG(bytes)
        case .png: return .bytes(strippedPNG(bytes))
        case .webp: return .bytes(strippedWebP(bytes))
        case .gif: return .bytes(strippedGIF(bytes) ?? bytes)
        }
    }

    // MARK: - JPEG

    private static func strippedJPEG(_ bytes: [UInt8]) -> Stripped {
        var kept: [UInt8] = [0xff, 0xd8]
        kept.reserveCapacity(bytes.count)
        var offset = 2
        var removed = false
        while offset + 3 < bytes.count, bytes[offset] == 0xff {
            let marker = bytes[offset + 1]
            if marker == 0xff {
                offset += 1
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = min(offset + 2 + length, bytes.count)
            let payload = bytes[min(offset + 4, end)..<end]
            // From the first scan on, everything is image data.
            if marker == 0xda { break }
            if marker == 0xe1, payload.starts(with: Array("Exif\0\0".utf8)) {
                let orientation = orientation(Array(payload.dropFirst(6)))
                if (2...8).contains(orientation) { return .turned(orientation: orientation) }
            }
            let isMetadata =
                ((0xe1...0xef).contains(marker) && !(marker == 0xe2 && payload.starts(with: Array("ICC_PROFILE".utf8)))
                    && marker != 0xee) || marker == 0xfe
            if isMetadata {
                removed = true
            } else {
                kept += bytes[offset..<end]
            }
            offset = end
        }
        guard removed else { return .bytes(bytes) }
        kept += bytes[offset...]
        return .bytes(kept)
    }

    /// The orientation an EXIF block's first IFD gives (1 upright … 8), 1 when it gives none.
    private static func orientation(_ tiff: [UInt8]) -> Int {
        guard tiff.count >= 8 else { return 1 }
        let little = tiff[0] == 0x49
        func read16(_ at: Int) -> Int {
            guard at + 1 < tiff.count else { return 0 }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func read32(_ at: Int) -> Int { little ? read16(at) | read16(at + 2) << 16 : read16(at) << 16 | read16(at + 2) }
        let ifd = read32(4)
        let count = read16(ifd)
        for index in 0..<min(count, 256) {
            let entry = ifd + 2 + index * 12
            if read16(entry) == 0x0112 { return read16(entry + 8) }
        }
        return 1
    }

    // MARK: - PNG

    private static let pngMetadataChunks: Set<String> = ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]

    private static func strippedPNG(_ bytes: [UInt8]) -> [UInt8] {
        var kept = Array(bytes.prefix(8))
        var offset = 8
        var removed = false
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let end = min(offset + 12 + length, bytes.count)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if pngMetadataChunks.contains(type) {
                removed = true
            } else {
                kept += bytes[offset..<end]
            }
            offset = end
        }
        guard removed else { return bytes }
        kept += bytes[offset...]
        return kept
    }

    // MARK: - WebP

    /// A WebP without its `EXIF` and `XMP ` chunks, its header's flags and size set to match.
    static func strippedWebP(_ bytes: [UInt8]) -> [UInt8] {
        var kept = Array(bytes.prefix(12))
        var offset = 12
        var removed = false
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            // Chunks are padded to an even size.
            let end = min(offset + 8 + size + (size & 1), bytes.count)
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            if type == "EXIF" || type == "XMP " {
                removed = true
            } else {
                kept += bytes[offset..<end]
            }
            offset = end
        }
        guard removed else { return bytes }
        // The extended header's flags say which chunks follow: EXIF is bit 3, XMP bit 2.
        if kept.count > 20, String(decoding: kept[12..<16], as: UTF8.self) == "VP8X" {
            kept[20] &= ~0x0c
        }
        let riff = kept.count - 8
        for index in 0..<4 { kept[4 + index] = UInt8(truncatingIfNeeded: riff >> (8 * index)) }
        return kept
    }

    // MARK: - GIF

    /// A GIF without comment and application extensions but the looping one; nil when its
    /// blocks cannot be followed (it is then written as it is: GIFs rarely carry metadata).
    private static func strippedGIF(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 13 else { return nil }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 0x07) + 1) }
        var kept = Array(bytes.prefix(offset))
        var removed = false
        /// Where the sub-blocks starting at `start` end.
        func subBlocksEnd(_ start: Int) -> Int? {
            var at = start
            while at < bytes.count {
                let size = Int(bytes[at])
                if size == 0 { return at + 1 }
                at += size + 1
            }
            return nil
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x3b:
                kept += bytes[offset...]
                return removed ? kept : bytes
            case 0x21:
                guard offset + 2 < bytes.count, let end = subBlocksEnd(offset + 2) else { return nil }
                let label = bytes[offset + 1]
                let isLoop = label == 0xff && offset + 14 <= bytes.count
                    && Array(bytes[offset + 3..<offset + 14]) == Array("NETSCAPE2.0".utf8)
                if label == 0xfe || (label == 0xff && !isLoop) {
                    removed = true
                } else {
                    kept += bytes[offset..<end]
                }
                offset = end
            case 0x2c:
                guard offset + 10 < bytes.count else { return nil }
                var start = offset + 10
                if bytes[offset + 9] & 0x80 != 0 { start += 3 << (Int(bytes[offset + 9] & 0x07) + 1) }
                guard let end = subBlocksEnd(start + 1) else { return nil }
                kept += bytes[offset..<end]
                offset = end
            default:
                return nil
            }
        }
        return nil
    }
}
