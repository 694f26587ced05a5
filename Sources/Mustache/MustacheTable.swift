/// An immutable context of named values that templates look into as they do a `[String: Any]`,
/// only faster: the keys are hashed once, when the table's `Keys` are made, and the values are
/// sorted into the engine's shapes once, when the table is made. A lookup is then a probe with
/// a hash worked out when the template was compiled, with no seeded hashing and no dynamic cast.
///
/// A key the table does not hold lets lookup continue in the enclosing contexts, as a key
/// missing from a dictionary does. Tables that share their keys (one per phone number, one per
/// page) share one `Keys`, so making one costs little more than an array of its values.
///
/// ```swift
/// let keys = MustacheTable.Keys(["label", "display", "tel"])
/// // No `tel` key: a section over `tel` finds the enclosing contexts' `tel`, if any.
/// let phone = MustacheTable(keys: keys, values: [.string("Work"), .string("+1 555 0100"), .absent])
/// ```
public struct MustacheTable {
    /// The keys a family of tables has, in order, with the index that finds them.
    public final class Keys: Sendable {
        /// The key names, in the order tables give their values.
        public let names: [String]
        /// Open addressing: for each slot the hash and position of the name stored there, or
        /// `Slot.empty`; one array, so a probe reads one entry for both.
        let slots: [Slot]
        /// One less than the number of slots, a power of two.
        let mask: Int

        /// One entry of the open-addressing table.
        struct Slot {
            /// The name's hash, as `Key` works it out.
            let hash: Int
            /// The name's position in `names`; negative for an empty slot.
            let index: Int

            /// A slot no name occupies.
            static let empty = Slot(hash: 0, index: -1)
        }

        /// Indexes `names`, which must be distinct.
        public init(_ names: [String]) {
            precondition(Set(names).count == names.count, "MustacheTable.Keys: duplicate key")
            var count = 4
            // At most half full, so a probe for a missing key meets an empty slot soon.
            while count < names.count * 2 { count *= 2 }
            var slots = [Slot](repeating: .empty, count: count)
            for (index, name) in names.enumerated() {
                let hash = Key(name).hash
                var slot = hash & (count - 1)
                while slots[slot].index >= 0 { slot = (slot + 1) & (count - 1) }
                slots[slot] = Slot(hash: hash, index: index)
            }
            self.names = names
            self.slots = slots
            mask = count - 1
        }

        /// The position of `key` in `names`, or nil when it is not one of them.
        @inline(__always)
        func index(of key: Key) -> Int? {
            // Unchecked reads: `mask` keeps every slot in range, and a slot's index is a name's.
            slots.withUnsafeBufferPointer { slots in
                names.withUnsafeBufferPointer { names in
                    var slot = key.hash & mask
                    while true {
                        let entry = slots[slot]
                        if entry.index < 0 { return nil }
                        if entry.hash == key.hash, names[entry.index] == key.name { return entry.index }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    /// The table's keys.
    let keys: Keys
    /// The value for each of `keys`; `absent` where the table does not have that key.
    let values: [MustacheValue]

    /// Makes a table with `values[i]` under `keys.names[i]`; an `absent` value leaves that key
    /// out, so lookup continues in the enclosing contexts (as with `MustacheBoxable`).
    public init(keys: Keys, values: [MustacheValue]) {
        precondition(values.count == keys.names.count, "MustacheTable: one value per key")
        self.keys = keys
        self.values = values
    }

    /// Makes a table holding the dictionary's keys and values.
    public init(_ dictionary: [String: Any]) {
        let names = dictionary.keys.sorted()
        self.init(keys: Keys(names), values: names.map { MustacheValue(dictionary[$0]) })
    }

    /// The names of the keys the table has, in the order of its `Keys`.
    public var keyNames: [String] {
        keys.names.indices.filter { values[$0].value != nil }.map { keys.names[$0] }
    }

    /// The value under `key` as the engine sees it, or nil when the table has no such key (or
    /// holds nil under it).
    public subscript(key: String) -> Any? {
        value(for: Key(key))?.any
    }

    /// The classified value under `key`, or nil when the table does not have that key.
    @inline(__always)
    func value(for key: Key) -> Value? {
        guard let index = keys.index(of: key) else { return nil }
        // Unchecked: `init` made one value per key.
        return values.withUnsafeBufferPointer { $0[index].value }
    }

    /// Where the value under `key` is stored, or nil when the table does not have that key.
    ///
    /// The pointer outlives the buffer access it comes from: `values` is never changed, so its
    /// storage stays where it is for as long as this table (or a copy of it) lives.
    @inline(__always)
    func storedValue(for key: Key) -> UnsafePointer<MustacheValue>? {
        guard let index = keys.index(of: key) else { return nil }
        // Unchecked: `init` made one value per key.
        return values.withUnsafeBufferPointer { values in
            guard let start = values.baseAddress, values[index].value != nil else { return nil }
            return start + index
        }
    }
}

extension MustacheTable: CustomStringConvertible {
    /// The table written like a dictionary, for the rare template that interpolates one.
    public var description: String {
        let pairs = keyNames.map { name in
            "\(String(reflecting: name)): \(self[name].map { String(reflecting: $0) } ?? "nil")"
        }
        return pairs.isEmpty ? "[:]" : "[" + pairs.joined(separator: ", ") + "]"
    }
}

/// One part of a name a template looks up, with the hash `MustacheTable` finds it by, worked
/// out once when the template is compiled.
struct Key: Sendable {
    /// The part's text.
    let name: String
    /// FNV-1a over the UTF-8 bytes: cheap, and unseeded, since template names and table keys
    /// are chosen by the site's author, not by whoever writes the data.
    let hash: Int

    /// Hashes `name`.
    init(_ name: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        self.name = name
        // Fold the high bits in: slots are taken from the low ones.
        self.hash = Int(truncatingIfNeeded: hash ^ hash >> 29)
    }
}
