/// The context stack of a render, innermost context last, in memory it manages itself.
///
/// Every section pushes a context and pops it again, so a push and a pop are a plain store and
/// load: an array would ask the runtime on each of them whether its buffer is shared. Lookups
/// read the contexts through `contexts`, in place.
struct ContextStack: ~Copyable {
    /// The start of the allocation; the first `count` values are initialized.
    private var start: UnsafeMutablePointer<Value>
    /// How many contexts are on the stack.
    private(set) var count = 0
    /// How many values fit before the allocation must grow.
    private var capacity: Int

    /// An empty stack with room for `capacity` contexts before it grows.
    init(capacity: Int = 16) {
        self.capacity = Swift.max(capacity, 1)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deinitialize(count: count)
        start.deallocate()
    }

    /// The contexts, outermost first. Valid until the next push: a push may move them.
    var contexts: UnsafeBufferPointer<Value> {
        UnsafeBufferPointer(start: start, count: count)
    }

    /// Pushes `value` as the innermost context.
    @inline(__always)
    mutating func push(_ value: consuming Value) {
        if count == capacity { grow() }
        (start + count).initialize(to: value)
        count += 1
    }

    /// Takes the innermost context off; the stack must not be empty.
    @inline(__always)
    mutating func pop() {
        count -= 1
        // Moved out and dropped, so the value is destroyed by its own type's code;
        // `deinitialize(count:)` goes through the runtime's generic array code.
        _ = (start + count).move()
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity * 2
        let newStart = UnsafeMutablePointer<Value>.allocate(capacity: newCapacity)
        newStart.moveInitialize(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }
}
