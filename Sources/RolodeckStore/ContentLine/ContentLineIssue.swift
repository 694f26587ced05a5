/// A problem with the lines of a vCard or iCalendar file, below the level of cards and todos;
/// its wording lives in one place, `message`. Every one is a warning: the line or value is read
/// as well as it can be, or skipped, and the rest of the file is still read.
struct ContentLineIssue: ReaderIssue {
    /// Everything that can be wrong with a line.
    enum Reason: Sendable, Equatable {
        case notAProperty
        case moreLinesSkipped(Int)
        case assumedWindows1252
        case unknownCharset(String)
        case notInCharset(String)
    }

    /// What is wrong.
    var reason: Reason

    /// The message the user reads.
    var message: String {
        switch reason {
        case .notAProperty:
            return "this line is not a property (NAME:value) and is ignored"
        case .moreLinesSkipped(let count):
            return "\(count) more \(count == 1 ? "line that is" : "lines that are") not properties "
                + "\(count == 1 ? "is" : "are") ignored, from here on"
        case .assumedWindows1252:
            return "this text is not UTF-8 and names no CHARSET; it is read as windows-1252"
        case .unknownCharset(let name):
            return "CHARSET \"\(name)\" is not one Rolodeck reads; the text is read as UTF-8 "
                + "(or windows-1252 where it is not UTF-8)"
        case .notInCharset(let name):
            return "this text is not valid \(name)"
                + (name.uppercased().filter { $0 != "-" } == "UTF8" ? "; it is read as windows-1252" : "")
        }
    }
}
