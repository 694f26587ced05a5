extension Array {
    /// The elements in ascending order of their slots, each from 0 to below `slots`, and those
    /// of one slot in their order here: a counting sort, for many elements in few slots (the
    /// 60,000 birthdays of 100,000 contacts in the days of a year), where a sort would compare
    /// them again on every save. A slot out of range stops the program. Inlinable, so that it
    /// is made for each type it orders, not copy elements through their type's generic witness.
    @inlinable public func ordered(inSlots slots: Int, by slot: (Element) -> Int) -> [Element] {
        // Where each slot's elements begin, then, as they are placed, where its next one goes.
        var next = [Int](repeating: 0, count: slots + 1)
        for element in self { next[slot(element) + 1] += 1 }
        for index in 0..<slots { next[index + 1] += next[index] }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            for element in self {
                let place = slot(element)
                (buffer.baseAddress! + next[place]).initialize(to: element)
                next[place] += 1
            }
            initialized = count
        }
    }
}
