import Mustache
import RolodeckCore

extension ViewBuilder {
    private static let qrKeys = MustacheTable.Keys(["size", "png"])

    /// The `qr` of entry `index`'s page: the QR code of its short vCard (hidden fields left out,
    /// as on the page), as its side in modules and a PNG of one pixel a module in base64; nil
    /// when the card does not fit in a QR code.
    func qrCode(ofEntry index: Int) -> MustacheTable? {
        let card = VCardWriter.compactCard(directory.exportedCard(ofEntry: index))
        guard let code = QRCode(encoding: card) else { return nil }
        let size = code.size
        let png = Base64Text.encoded(code.png)
        return MustacheTable(keys: Self.qrKeys) { field in
            [field("size", .int(size)), field("png", .string(png))]
        }
    }
}
