/// The gojūon rows あ か さ た な は ま や ら わ that Japanese directories use as sections.
enum KanaRows {
    /// Row headings in page order.
    static let labels = ["あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ"]
    /// ASCII anchors, parallel to `labels`.
    static let anchors = ["ja-a", "ja-ka", "ja-sa", "ja-ta", "ja-na", "ja-ha", "ja-ma", "ja-ya", "ja-ra", "ja-wa"]

    /// Every hiragana of a row, including voiced, semi-voiced and small forms
    /// (が → か, ぱ → は, ゃ → や, っ → た); ゔ belongs to あ and ん to わ.
    private static let hiraganaByRow = [
        "ぁあぃいぅうぇえぉおゔ", "かがきぎくぐけげこごゕゖ", "さざしじすずせぜそぞ",
        "ただちぢっつづてでとど", "なにぬねの", "はばぱひびぴふぶぷへべぺほぼぽ", "まみむめも",
        "ゃやゅゆょよ", "らりるれろ", "ゎわゐゑをん",
    ]

    /// Small katakana from the Katakana Phonetic Extensions block (ㇰ ㇱ …) by row.
    private static let phoneticExtensionsByRow: [(String, Int)] = [
        ("ㇰ", 1), ("ㇱㇲ", 2), ("ㇳ", 3), ("ㇴ", 4), ("ㇵㇶㇷㇸㇹ", 5), ("ㇺ", 6), ("ㇻㇼㇽㇾㇿ", 8),
    ]

    private static let rowByScalar: [UInt32: Int] = {
        var table: [UInt32: Int] = [:]
        for (row, kana) in hiraganaByRow.enumerated() {
            for scalar in kana.unicodeScalars {
                table[scalar.value] = row
                // Katakana U+30A1…U+30F6 mirror hiragana U+3041…U+3096.
                table[scalar.value + 0x60] = row
            }
        }
        // ヷ ヸ ヹ ヺ are voiced ワ ヰ ヱ ヲ.
        for value in UInt32(0x30F7)...0x30FA { table[value] = 9 }
        for (kana, row) in phoneticExtensionsByRow {
            for scalar in kana.unicodeScalars { table[scalar.value] = row }
        }
        return table
    }()

    /// The row index 0…9 of a full-width hiragana or katakana scalar, or nil.
    ///
    /// Half-width katakana must be NFKC-normalized first; the long mark ー and
    /// the iteration marks ゝ ヽ have no row.
    static func rowIndex(of scalar: Unicode.Scalar) -> Int? {
        rowByScalar[scalar.value]
    }
}
