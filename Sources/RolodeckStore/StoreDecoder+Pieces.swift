import RolodeckCore

/// A JSON list read afresh is decoded in pieces: `JSONArraySplitter.pieceStarts` guesses where
/// pieces of about a sixteenth of the file start, every core parses and decodes whole pieces
/// with `JSONParser.readElements`, and this thread accepts each piece's records, in order, as
/// soon as the piece is in, so that accepting (on one core) overlaps decoding (on all of them).
///
/// A piece must end exactly where the next one was guessed to start, and the last with the
/// array. When one does not, or something does not parse, nothing of the list is kept and it is
/// split and parsed element by element instead, which reports every mistake in its place.
extension StoreDecoder {
    /// How many bytes of a list a piece has at least: enough that setting a piece up costs
    /// nothing, few enough that the cores finish close together.
    static let minimumPieceLength = 64 * 1024

    /// One piece of a list: its records, where the element after them starts (nil after the
    /// last), and whether its bytes are all UTF-8.
    struct Piece: Sendable {
        var records: [DecodedRecord]
        var next: Int?
        var isValidUTF8: Bool
    }

    /// Decodes a JSON list in pieces on every core and accepts their records as they come in;
    /// false, having accepted nothing, when the list must be split instead. `pieceLength` is
    /// for tests; by default a piece is a sixteenth of the file (on two cores) or 64 KB.
    mutating func acceptInPieces(_ file: StoreFile, pieceLength: Int? = nil) -> Bool {
        let source = file.source
        let length = pieceLength
            ?? max(Self.minimumPieceLength, source.bytes.count / (8 * ParallelWork.workers))
        guard let starts = JSONArraySplitter.pieceStarts(of: source.bytes, pieceLength: length) else {
            return false
        }
        // Put back when the list cannot be read in pieces. Only what a list changes is copied
        // when it is changed, and the tables it adds to are mostly empty before.
        let before = self
        let firstDiagnostic = diagnostics.count
        var isValidUTF8 = true
        var failed = false
        ParallelWork.inOrder(starts.count, batch: 1) { index in
            Self.piece(index, of: file, starts: starts)
        } consume: { index, piece in
            // Every piece is taken, also after a failure, so that each is freed here.
            let next = index + 1 < starts.count ? starts[index + 1] : nil
            guard !failed, let piece, piece.next == next else {
                failed = true
                return
            }
            isValidUTF8 = isValidUTF8 && piece.isValidUTF8
            if index == 0 {
                // Pieces are about as long as each other.
                reserveIDs(for: piece.records.count * (starts.count + 1), of: file.kind)
            }
            piece.records.withUnsafeBufferPointer { records in
                guard let first = records.baseAddress else { return }
                for position in records.indices {
                    accept(first + position, source: source)
                }
            }
        }
        if failed {
            self = before
            return false
        }
        // Where the split list puts them: before the problems of its records.
        if !isValidUTF8 { diagnostics.insert(contentsOf: Self.utf8Diagnostics(source), at: firstDiagnostic) }
        return true
    }

    /// Piece `index` of a list whose pieces start at `starts`, parsed and decoded; nil when it
    /// does not parse.
    private static func piece(_ index: Int, of file: StoreFile, starts: [Int]) -> Piece? {
        let stop = index + 1 < starts.count ? starts[index + 1] : Int.max
        var records: [DecodedRecord] = []
        do throws(JSONSyntaxError) {
            let (next, isValidUTF8) = try JSONParser.readElements(
                file.source.bytes, from: starts[index], stoppingAt: stop, keys: knownKeys
            ) { (parser) throws(JSONSyntaxError) in
                records.append(
                    try DecodedRecord(reading: &parser, depth: 0, kind: file.kind, source: file.source))
            }
            return Piece(records: records, next: next, isValidUTF8: isValidUTF8)
        } catch {
            return nil
        }
    }
}
