/// An array kept in chunks of 4,096 elements, which copies share: changing one element of a
/// copy copies that element's chunk, not the whole array.
///
/// A watched save patches one contact of a directory of 100,000 whose last version the previous
/// pages still read. Copying all 100,000 entries on that write took 35 ms of the save (a retain
/// of each entry's strings and contact, each one a cache miss), and freeing them as much again.
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    /// log2 of the elements in a chunk.
    @usableFromInline static var shift: Int { 12 }
    @usableFromInline static var mask: Int { (1 << shift) - 1 }

    /// The chunks, each full but the last.
    @usableFromInline var chunks: [[Element]]
    /// How many elements there are.
    @inlinable public var count: Int { elementCount }
    @usableFromInline var elementCount: Int

    /// An empty array.
    public init() {
        chunks = []
        elementCount = 0
    }

    /// The elements of `elements`, in order, cut into chunks without being appended one by one.
    @inlinable public init(_ elements: [Element]) {
        let size = 1 << Self.shift
        chunks = stride(from: 0, to: elements.count, by: size).map { start in
            var chunk: [Element] = []
            chunk.reserveCapacity(size)
            chunk.append(contentsOf: elements[start..<Swift.min(elements.count, start + size)])
            return chunk
        }
        elementCount = elements.count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable public func index(after index: Int) -> Int { index + 1 }
    @inlinable public func index(before index: Int) -> Int { index - 1 }

    @inlinable public subscript(position: Int) -> Element {
        // Read in place: `entries[i].contact` retains the contact, not every field of the element.
        _read {
            precondition(position >= 0 && position < count, "ChunkedArray index out of range")
            yield chunks[position >> Self.shift][position & Self.mask]
        }
        _modify {
            precondition(position >= 0 && position < count, "ChunkedArray index out of range")
            yield &chunks[position >> Self.shift][position & Self.mask]
        }
    }

    /// Adds an element at the end. Inlinable, so that a module appending entries has it made
    /// for their type: a generic call looked up the type of the chunks on every element.
    @inlinable public mutating func append(_ element: Element) {
        if count & Self.mask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(1 << Self.shift)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        elementCount += 1
    }
}

extension ChunkedArray {
    /// The positions whose chunk is not the very chunk (the same storage) that `other` has at
    /// the same place, as ranges in order; positions past `other`'s end are among them. The
    /// elements of a shared chunk are the same elements, so a comparison of two versions of a
    /// list (a save changes one file of 100,000) need look only at these.
    public func rangesNotShared(with other: ChunkedArray) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for chunk in chunks.indices {
            if chunk < other.chunks.count, Self.isSameStorage(chunks[chunk], other.chunks[chunk]) { continue }
            let start = chunk << Self.shift
            let end = Swift.min(count, start + (1 << Self.shift))
            if let last = ranges.last, last.upperBound == start {
                ranges[ranges.count - 1] = last.lowerBound..<end
            } else {
                ranges.append(start..<end)
            }
        }
        return ranges
    }

    /// Whether two arrays are one storage (and so, one count and the same elements).
    private static func isSameStorage(_ one: [Element], _ other: [Element]) -> Bool {
        one.withUnsafeBufferPointer { one in
            other.withUnsafeBufferPointer { one.baseAddress == $0.baseAddress && one.count == $0.count }
        }
    }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    /// The elements listed, in order.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
