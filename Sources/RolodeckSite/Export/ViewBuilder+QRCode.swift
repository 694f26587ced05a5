import Mustache
import RolodeckCore

extension ViewBuilder {
    private static let qrKeys = MustacheTable.Keys(["size", "path"])

    /// The `qr` of entry `index`'s page: the QR code of its short vCard (hidden fields left out,
    /// as on the page), as the side of the drawing and the `d` of its one path; nil when the
    /// card does not fit in a QR code.
    func qrCode(ofEntry index: Int) -> MustacheTable? {
        let card = VCardWriter.compactCard(directory.exportedCard(ofEntry: index))
        guard let code = QRCode(encoding: card) else { return nil }
        let size = code.size
        let path = code.svgPath
        return MustacheTable(keys: Self.qrKeys) { field in
            [field("size", .int(size)), field("path", .string(path))]
        }
    }
}
