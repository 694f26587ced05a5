/// Where a contact is on the globe, as a card gives it (vCard `GEO`): a latitude and a
/// longitude in decimal degrees, kept as written so that a `geo:` link shows them unchanged.
public struct GeoCoordinate: Sendable, Hashable {
    /// Degrees north (negative: south), -90 to 90, as written.
    public var latitude: String
    /// Degrees east (negative: west), -180 to 180, as written.
    public var longitude: String

    /// Creates a coordinate; use `parse` to validate text.
    public init(latitude: String, longitude: String) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads vCard 4's `geo:48.198634,16.371648` (parameters such as `;u=35` after it are
    /// passed over) or vCard 3's `48.198634;16.371648`; nil unless both are decimal numbers in
    /// range.
    public static func parse(_ text: String) -> GeoCoordinate? {
        var value = Substring(text.trimmingWhitespace)
        let separator: Character
        if value.lowercased().hasPrefix("geo:") {
            value = value.dropFirst(4).prefix { $0 != ";" }
            separator = ","
        } else {
            separator = value.contains(";") ? ";" : ","
        }
        let parts = value.split(separator: separator, omittingEmptySubsequences: false)
        // A geo: URI may give an altitude too; only the first two count.
        guard parts.count == 2 || (separator == "," && parts.count == 3) else { return nil }
        let latitude = String(parts[0]).trimmingWhitespace
        let longitude = String(parts[1]).trimmingWhitespace
        guard let north = degrees(latitude), abs(north) <= 90,
            let east = degrees(longitude), abs(east) <= 180
        else { return nil }
        return GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    /// The `geo:` URI (RFC 5870) a link opens a map app with.
    public var uri: String { "geo:" + latitude + "," + longitude }

    /// A decimal number of degrees: an optional sign, digits, and an optional fraction; nil for
    /// anything else (no exponent, no `nan`).
    static func degrees(_ text: String) -> Double? {
        var digits = Substring(text)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            parts.count == 1 || !parts[1].isEmpty
        else { return nil }
        return Double(text)
    }
}
