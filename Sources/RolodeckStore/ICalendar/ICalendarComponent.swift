import RolodeckCore

/// A component of an iCalendar file (`VCALENDAR`, `VTODO`, `VTIMEZONE`, `STANDARD` …) with its
/// properties and the components inside it.
struct ICalendarComponent: Sendable {
    /// The name in upper case.
    var name: String
    /// The properties in the order written.
    var properties: [ContentLine]
    /// The components inside it, in order.
    var components: [ICalendarComponent]
    /// Where `BEGIN` is.
    var location: SourceLocation

    /// The first property of a name.
    func property(_ name: String) -> ContentLine? {
        properties.first { $0.name == name }
    }

    /// Every component of a name at any depth, in document order.
    func all(_ name: String) -> [ICalendarComponent] {
        components.flatMap { ($0.name == name ? [$0] : []) + $0.all(name) }
    }
}
