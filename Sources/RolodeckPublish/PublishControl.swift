/// How the caller of a publish follows it and stops it from outside, as `rolodeck build` does on
/// Ctrl-C or SIGTERM.
///
/// Until `willWrite` is called, a publish has written nothing, so a caller may end the process
/// at once. From then on the publish has things to clean up: the caller asks it to stop through
/// `isCancelled`, which it asks between files and one last time just before the swap; it then
/// removes what it wrote and throws `Publisher.Cancelled`, leaving the output as it was. It never
/// asks after the swap: a publish that has swapped the new site in finishes, retiring the old
/// one, so that what is left is one whole site or the other, never a part of both.
public struct PublishControl: Sendable {
    /// Called when another build holds the output's lock and the publish waits for it.
    public var waiting: @Sendable () -> Void
    /// Called once, with the lock held, just before the first thing is written beside or into
    /// the output. A caller that ends the process on a signal must not do so once this was
    /// called; it may block while the process is ending anyway.
    public var willWrite: @Sendable () -> Void
    /// Whether the publish should stop, leaving the output as it was.
    public var isCancelled: @Sendable () -> Bool

    /// A control with the given parts.
    public init(
        waiting: @escaping @Sendable () -> Void = {}, willWrite: @escaping @Sendable () -> Void = {},
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) {
        self.waiting = waiting
        self.willWrite = willWrite
        self.isCancelled = isCancelled
    }

    /// Follows nothing and never stops a publish.
    public static let none = PublishControl()
}
