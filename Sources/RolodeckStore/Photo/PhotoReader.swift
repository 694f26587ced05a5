import RolodeckCore

/// Turns a photo's bytes, as a file or as base64 text in a card, into a `ContactPhoto`: the
/// format told by the first bytes, the end of the image checked to be there, the size read
/// from its header, the digest taken. Each step's failure is a `PhotoIssue.Reason`.
///
/// The bytes are decoded here once, where the store file is decoded (on any core, and kept by
/// the decode cache); the stages after read the result.
enum PhotoReader {
    /// The photo in a file's bytes.
    static func photo(fromFile bytes: [UInt8]) -> Result<ContactPhoto, PhotoIssue.Reason> {
        guard bytes.count <= PhotoIssue.byteLimit else { return .failure(.tooLarge(bytes: bytes.count)) }
        return inspect(bytes)
    }

    /// The photo in base64 text (vCard `ENCODING=b` or `BASE64`, or a `data:` URI's data).
    /// Spaces, tabs and line breaks anywhere in it are passed over (vCard 2.1 keeps the
    /// whitespace its folded lines begin with).
    static func photo(fromBase64 text: some Collection<UInt8>) -> Result<ContactPhoto, PhotoIssue.Reason> {
        // Three bytes for every four digits: a photo over the limit is told by counting, before
        // megabytes are decoded only to be dropped.
        let size = Base64.decodedCount(text)
        guard size <= PhotoIssue.byteLimit else { return .failure(.tooLarge(bytes: size)) }
        guard let decoded = Base64.decode(text) else { return .failure(.invalidBase64) }
        return inspect(decoded)
    }

    /// The photo in a `data:` URI's text (`data:image/jpeg;base64,…`). The media type written
    /// is not trusted: the bytes tell the format.
    static func photo(fromDataURI text: ArraySlice<UInt8>) -> Result<ContactPhoto, PhotoIssue.Reason> {
        guard let comma = text.firstIndex(of: UInt8(ascii: ",")) else { return .failure(.invalidDataURI) }
        let header = String(decoding: text[text.startIndex..<comma], as: UTF8.self).lowercased()
        guard header.hasSuffix(";base64") else { return .failure(.invalidDataURI) }
        return photo(fromBase64: text[(comma + 1)...])
    }

    /// The photo in an image's bytes: its format from the first bytes, checked to be whole, its
    /// size from the header, its digest.
    static func inspect(_ bytes: [UInt8]) -> Result<ContactPhoto, PhotoIssue.Reason> {
        guard let format = ImageHeader.format(of: bytes) else { return .failure(.unknownFormat) }
        guard ImageHeader.isComplete(bytes, format: format) else { return .failure(.truncated(format)) }
        guard let (width, height) = ImageHeader.dimensions(of: bytes, format: format), width > 0, height > 0 else {
            return .failure(.noDimensions(format))
        }
        return .success(
            ContactPhoto(
                format: format, digest: SHA256.hex(of: bytes), width: width, height: height,
                data: ContactPhoto.Bytes(bytes)))
    }
}
