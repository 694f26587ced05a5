import Synchronization

/// A value that renderers sharing a watch's cache keep for the next rebuild, kept from the newest
/// renderer that kept one.
///
/// Each renderer takes a ticket when it is made. A renderer made for an output found up to date
/// makes its part off the rebuilds' path, and may finish after a save's newer renderer kept its
/// own: a value kept with an older ticket than the one kept is dropped, so the cache never goes
/// back to an older directory's.
final class NewestKept<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        /// The ticket of the newest renderer that kept a value or took one out; -1 when none has.
        var keptBy = -1
        /// The next ticket.
        var next = 0
    }

    private let state = Mutex(State())

    init() {}

    /// A number for a renderer made now, higher than those of every renderer made before.
    func ticket() -> Int {
        state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    /// The value kept; nil when there is none.
    var kept: Value? { state.withLock { $0.value } }

    /// The value kept when `usable` accepts it, for the renderer given `ticket`; nil when
    /// there is none or it is not usable. A renderer at least as new as the one that kept it
    /// takes it out, leaving none kept (even one not usable): it holds the one reference, so a
    /// value it changes in place is not copied first, and it keeps its own. An older renderer's
    /// keep would be dropped, so it gets the value and leaves it kept.
    func take(ticket: Int, where usable: (Value) -> Bool) -> Value? {
        state.withLock { state in
            let value = state.value.flatMap { usable($0) ? $0 : nil }
            if ticket >= state.keptBy {
                state.value = nil
                state.keptBy = ticket
            }
            return value
        }
    }

    /// Keeps `value`, made by the renderer given `ticket`, in place of the one kept, unless a
    /// newer renderer kept that one (or took it to keep its own).
    func keep(_ value: Value, ticket: Int) {
        state.withLock { state in
            guard ticket >= state.keptBy else { return }
            state.value = value
            state.keptBy = ticket
        }
    }
}
