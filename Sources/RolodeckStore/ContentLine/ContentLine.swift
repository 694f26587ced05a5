import RolodeckCore

/// One property of a vCard or iCalendar file, unfolded: `group.NAME;PARAM=value,value:value`.
///
/// vCard (RFC 2426, RFC 6350, and the older vCard 2.1) and iCalendar (RFC 5545) share this line
/// syntax, so one reader serves both. The value stays bytes here: how to turn them into text
/// (quoted-printable, `CHARSET`, escapes, lists) depends on the property, and is decided by
/// `ContentLineText` and the readers of each format.
struct ContentLine: Sendable {
    /// A parameter: `TYPE=work,voice`, or a vCard 2.1 bare one (`CELL`), read as `TYPE=CELL`.
    struct Parameter: Sendable, Equatable {
        /// The name in upper case.
        var name: String
        /// The first value, unquoted and with RFC 6868 `^n ^' ^^` decoded: every parameter has
        /// one (a bare one, or one after `=`, if empty).
        var value: String
        /// The values after the first (`TYPE=work,voice` has one). Most parameters have none,
        /// and an empty list allocates nothing: as one list of values, each parameter of every
        /// line allocated one.
        var moreValues: [String] = []

        /// The values in order.
        var values: [String] { [value] + moreValues }

        /// Calls `body` with each value in order.
        func forEachValue(_ body: (String) -> Void) {
            body(value)
            for value in moreValues { body(value) }
        }
    }

    /// How a value's bytes are encoded, from `ENCODING` (or a bare 2.1 parameter).
    enum Encoding: Sendable, Equatable {
        case quotedPrintable, base64
    }

    /// The group, name and parameters, read before the value. The line keeps the header the
    /// reader made, rather than copies of its parts: copying them retained each and released
    /// the header's, for every line of every card.
    let header: ContentLineHeader
    /// The value's bytes: unfolded, quoted-printable soft line breaks joined, still encoded. They
    /// are the file's own bytes when the line is not folded.
    var value: ArraySlice<UInt8>
    /// The path of the file, for locations.
    var path: String
    /// The line the property starts on, from 1.
    var lineNumber: Int
    /// The line and column (from 1, in Unicode scalars) where the value starts.
    var valuePosition: (line: Int, column: Int)

    /// The group before the name (`item1` in `item1.TEL`), lowercased; "" when there is none.
    var group: String { header.group }
    /// The property name in upper case.
    var name: String { header.name }
    /// The parameters in the order written.
    var parameters: [Parameter] { header.parameters }
    /// The value encoding, when the parameters name one.
    var encoding: Encoding? { header.encoding }

    /// Where the property starts.
    var location: SourceLocation { SourceLocation(path: path, line: lineNumber, column: 1) }

    /// Where the value starts, for messages about the value.
    var valueLocation: SourceLocation {
        SourceLocation(path: path, line: valuePosition.line, column: valuePosition.column)
    }

    /// Every value of a parameter, in order (`TYPE=a;TYPE=b,c` gives a, b, c).
    func values(of parameter: String) -> [String] {
        var values: [String] = []
        for written in parameters where written.name == parameter {
            written.forEachValue { values.append($0) }
        }
        return values
    }

    /// The first value of a parameter.
    func value(of parameter: String) -> String? {
        parameters.first { $0.name == parameter }?.value
    }

    /// The value encoding a list of parameters names.
    static func encoding(in parameters: [Parameter]) -> Encoding? {
        var encoding: Encoding?
        for parameter in parameters where parameter.name == "ENCODING" {
            parameter.forEachValue { value in
                guard encoding == nil else { return }
                switch value.uppercased() {
                case "QUOTED-PRINTABLE": encoding = .quotedPrintable
                case "B", "BASE64": encoding = .base64
                default: break
                }
            }
            if encoding != nil { break }
        }
        return encoding
    }
}
