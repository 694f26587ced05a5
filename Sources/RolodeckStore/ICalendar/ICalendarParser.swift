import RolodeckCore

/// Reads the components of an iCalendar file (RFC 5545): `BEGIN:X` … `END:X`, nested.
///
/// A component that is never ended is closed where the component around it ends (or at the end
/// of the file), an `END` that matches nothing is ignored, and lines outside any component are
/// reported once, so one broken todo never costs the rest of the file.
enum ICalendarParser {
    /// The top-level components of a file (normally one `VCALENDAR`) and the problems found.
    static func parse(_ source: SourceText) -> (components: [ICalendarComponent], diagnostics: [Diagnostic]) {
        var reader = ContentLineReader(source: source)
        var diagnostics: [Diagnostic] = []
        var stack: [ICalendarComponent] = []
        var roots: [ICalendarComponent] = []
        var reportedOutside = false

        func report(_ reason: ICalendarIssue.Reason, at location: SourceLocation) {
            diagnostics.append(ICalendarIssue.warning(reason, at: location))
        }
        func close() {
            let finished = stack.removeLast()
            if stack.isEmpty {
                roots.append(finished)
            } else {
                stack[stack.count - 1].components.append(finished)
            }
        }

        while let line = reader.next() {
            let value = String(decoding: line.value, as: UTF8.self).trimmingWhitespace.uppercased()
            switch line.name {
            case "BEGIN" where !value.isEmpty:
                stack.append(ICalendarComponent(name: value, properties: [], components: [], location: line.location))
            case "END" where !value.isEmpty:
                guard let depth = stack.lastIndex(where: { $0.name == value }) else {
                    report(.strayEnd(value), at: line.location)
                    continue
                }
                while stack.count > depth + 1 {
                    report(.notEnded(stack[stack.count - 1].name), at: stack[stack.count - 1].location)
                    close()
                }
                close()
            default:
                guard !stack.isEmpty else {
                    if !reportedOutside { report(.textOutsideComponent, at: line.location) }
                    reportedOutside = true
                    continue
                }
                stack[stack.count - 1].properties.append(line)
            }
        }
        while !stack.isEmpty {
            report(.notEnded(stack[stack.count - 1].name), at: stack[stack.count - 1].location)
            close()
        }
        return (roots, (reader.diagnostics + diagnostics).sortedByLocation())
    }
}
