import ByteKernels

/// One kernel against the plain Swift it stands in for: both do the same work over the same
/// inputs and return a checksum of what they found or wrote, so neither can be optimized away
/// and the two can be checked against each other.
struct Benchmark: Sendable {
    /// The kernel, as the docs name it.
    let name: String
    /// The sizes of its inputs.
    let sizes: String
    /// What it is compared with.
    let plainName: String
    let kernel: @Sendable (Inputs) -> Int
    let plain: @Sendable (Inputs) -> Int
}

/// The HTML bytes escaping replaces, as a word test and as the byte test it stands for.
enum HTMLSpecials {
    @inline(__always)
    static func marks(_ word: UInt64) -> UInt64 {
        ByteWord.bytes(equalTo: 0x22, in: word) | ByteWord.bytes(equalTo: 0x26, in: word)
            | ByteWord.bytes(equalTo: 0x27, in: word) | ByteWord.bytes(equalTo: 0x3C, in: word)
            | ByteWord.bytes(equalTo: 0x3E, in: word)
    }

    @inline(__always)
    static func contains(_ byte: UInt8) -> Bool {
        byte == 0x22 || byte == 0x26 || byte == 0x27 || byte == 0x3C || byte == 0x3E
    }
}

/// The bytes that end the plain run of a JSON string, as a word test and as a byte test.
enum JSONSpecials {
    @inline(__always)
    static func marks(_ word: UInt64) -> UInt64 {
        ByteWord.bytes(equalTo: 0x22, in: word) | ByteWord.bytes(equalTo: 0x5C, in: word)
            | ByteWord.bytes(below: 0x20, in: word)
    }

    @inline(__always)
    static func contains(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x5C || byte < 0x20 }
}

/// What the page benchmarks write into: the shared buffer, or an array as plain Swift would.
protocol PageBuffer: ~Copyable {
    /// An empty page with room for 4,096 bytes.
    static func page() -> Self
    var count: Int { get }
    /// Appends a run as it is.
    mutating func append(run: UnsafeBufferPointer<UInt8>)
    /// Appends the first `count` bytes of a run one by one.
    mutating func put(_ count: Int, of run: UnsafeBufferPointer<UInt8>)
}

extension ByteBuffer: PageBuffer {
    static func page() -> ByteBuffer { ByteBuffer(capacity: 4096) }

    @inline(__always)
    mutating func append(run: UnsafeBufferPointer<UInt8>) { append(run) }

    @inline(__always)
    mutating func put(_ count: Int, of run: UnsafeBufferPointer<UInt8>) {
        reserve(count)
        for byte in run[..<count] { put(byte) }
    }
}

extension Array: PageBuffer where Element == UInt8 {
    static func page() -> [UInt8] {
        var page: [UInt8] = []
        page.reserveCapacity(4096)
        return page
    }

    @inline(__always)
    mutating func append(run: UnsafeBufferPointer<UInt8>) { append(contentsOf: run) }

    @inline(__always)
    mutating func put(_ count: Int, of run: UnsafeBufferPointer<UInt8>) {
        for byte in run[..<count] { append(byte) }
    }
}

/// How many runs make a page: each page starts a new buffer, as each render does.
let appendsPerPage = 256

let benchmarks: [Benchmark] = [
    Benchmark(
        name: "ByteBuffer.append", sizes: "2–16 B", plainName: "Array.append(contentsOf:)",
        kernel: { paging($0, into: ByteBuffer.self) { $0.append(run: $1) } },
        plain: { paging($0, into: [UInt8].self) { $0.append(run: $1) } }),
    Benchmark(
        name: "ByteBuffer.put", sizes: "1–6 B", plainName: "Array.append(_:)",
        kernel: { paging($0, into: ByteBuffer.self) { $0.put($1.count % 6 + 1, of: $1) } },
        plain: { paging($0, into: [UInt8].self) { $0.put($1.count % 6 + 1, of: $1) } }),
    Benchmark(
        name: "ShortBytes.copy", sizes: "2–16 B", plainName: "copyMemory (memmove)",
        kernel: { inputs in
            copying(inputs) { source, count, target in ShortBytes.copy(source, count: count, to: target) }
        },
        plain: { inputs in
            copying(inputs) { source, count, target in target.copyMemory(from: source, byteCount: count) }
        }),
    Benchmark(
        name: "ByteWord.firstIndex, HTML", sizes: "4–40 B", plainName: "byte-by-byte loop",
        kernel: { scanning($0) { ByteWord.firstIndex(in: $0, from: 0, marked: HTMLSpecials.marks) } },
        plain: { scanning($0) { byteByByte($0, HTMLSpecials.contains) } }),
    Benchmark(
        name: "ByteWord.firstIndex, JSON", sizes: "4–40 B", plainName: "byte-by-byte loop",
        kernel: { scanning($0) { ByteWord.firstIndex(in: $0, from: 0, marked: JSONSpecials.marks) } },
        plain: { scanning($0) { byteByByte($0, JSONSpecials.contains) } }),
    Benchmark(
        name: "UTF16Key.copy", sizes: "2–30 units", plainName: "copyMemory (memmove)",
        kernel: { inputs in
            copyingKeys(inputs) { source, count, target in UTF16Key.copy(source, count: count, to: target) }
        },
        plain: { inputs in
            copyingKeys(inputs) { source, count, target in
                UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: 2 * count)
            }
        }),
    Benchmark(
        name: "UTF16Key.equal", sizes: "2–30 units", plainName: "Array ==",
        kernel: { inputs in
            let (others, _) = otherKeys(inputs)
            return inputs.units.withUnsafeBufferPointer { units in
                others.withUnsafeBufferPointer { others in
                    var equal = 0
                    for key in inputs.keys
                    where UTF16Key.equal(
                        units.baseAddress! + key.offset, others.baseAddress! + key.offset, count: key.count)
                    {
                        equal += 1
                    }
                    return equal
                }
            }
        },
        plain: { inputs in
            let (_, pairs) = otherKeys(inputs)
            var equal = 0
            for pair in pairs where pair.key == pair.other { equal += 1 }
            return equal
        }),
    Benchmark(
        name: "UTF16Key.commonPrefixCount", sizes: "2–30 units", plainName: "unit-by-unit loop",
        kernel: { inputs in
            sharing(inputs) { previous, key, limit in UTF16Key.commonPrefixCount(previous, key, limit: limit)
            }
        },
        plain: { inputs in
            sharing(inputs) { previous, key, limit in
                var shared = 0
                while shared < limit, previous[shared] == key[shared] { shared += 1 }
                return shared
            }
        }),
]

/// Writes each short run into pages with `write`, a new page every `appendsPerPage` runs; the
/// checksum is the pages' lengths.
@inline(__always)
func paging<Page: PageBuffer & ~Copyable>(
    _ inputs: Inputs, into _: Page.Type, _ write: (inout Page, UnsafeBufferPointer<UInt8>) -> Void
) -> Int {
    inputs.text.withUnsafeBufferPointer { text in
        var checksum = 0
        var page = Page.page()
        for (index, run) in inputs.shortRuns.enumerated() {
            if index % appendsPerPage == 0 {
                checksum &+= page.count
                page = Page.page()
            }
            write(&page, UnsafeBufferPointer(rebasing: text[run.offset..<run.offset + run.count]))
        }
        return checksum &+ page.count
    }
}

/// The index of the first byte of `value` that `isSpecial`, or its count, a byte at a time.
@inline(__always)
func byteByByte(_ value: UnsafeBufferPointer<UInt8>, _ isSpecial: (UInt8) -> Bool) -> Int {
    var index = 0
    while index < value.count, !isSpecial(value[index]) { index += 1 }
    return index
}

/// Copies each short run to a scratch buffer, at a moving offset; the checksum is a byte of
/// each copy.
@inline(__always)
func copying(
    _ inputs: Inputs, _ copy: (UnsafeRawPointer, Int, UnsafeMutableRawPointer) -> Void
) -> Int {
    let scratch = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
    defer { scratch.deallocate() }
    return inputs.text.withUnsafeBytes { text in
        var checksum = 0
        for (index, run) in inputs.shortRuns.enumerated() {
            let target = scratch + index & 31
            copy(text.baseAddress! + run.offset, run.count, target)
            checksum &+= Int(target.load(fromByteOffset: run.count - 1, as: UInt8.self))
        }
        return checksum
    }
}

/// Scans each value run; the checksum is the sum of the positions found.
@inline(__always)
func scanning(_ inputs: Inputs, _ scan: (UnsafeBufferPointer<UInt8>) -> Int) -> Int {
    inputs.text.withUnsafeBufferPointer { text in
        var checksum = 0
        for run in inputs.valueRuns {
            checksum &+= scan(UnsafeBufferPointer(rebasing: text[run.offset..<run.offset + run.count]))
        }
        return checksum
    }
}

/// Copies each key after the last into a unit buffer, as the term table's builder does.
@inline(__always)
func copyingKeys(
    _ inputs: Inputs, _ copy: (UnsafePointer<UInt16>, Int, UnsafeMutablePointer<UInt16>) -> Void
) -> Int {
    let target = UnsafeMutablePointer<UInt16>.allocate(capacity: inputs.units.count)
    defer { target.deallocate() }
    return inputs.units.withUnsafeBufferPointer { units in
        var end = 0, checksum = 0
        for key in inputs.keys {
            copy(units.baseAddress! + key.offset, key.count, target + end)
            end += key.count
            checksum &+= Int(target[end - 1])
        }
        return checksum
    }
}

/// The keys again, one in ten changed in one unit, as units and as pairs of arrays; made
/// once, before the clock starts (main.swift).
nonisolated(unsafe) var otherKeysMade: ([UInt16], [(key: [UInt16], other: [UInt16])])?

func otherKeys(_ inputs: Inputs) -> ([UInt16], [(key: [UInt16], other: [UInt16])]) {
    if let made = otherKeysMade { return made }
    var others = inputs.units
    for (index, key) in inputs.keys.enumerated() where index % 10 == 0 {
        others[key.offset + (index / 10) % key.count] ^= 1
    }
    let pairs = inputs.keys.map {
        (
            key: Array(inputs.units[$0.offset..<$0.offset + $0.count]),
            other: Array(others[$0.offset..<$0.offset + $0.count])
        )
    }
    otherKeysMade = (others, pairs)
    return (others, pairs)
}

/// The common prefix of each sorted key with the one before, as front coding takes it.
@inline(__always)
func sharing(_ inputs: Inputs, _ shared: (UnsafePointer<UInt16>, UnsafePointer<UInt16>, Int) -> Int) -> Int {
    let (units, starts) = sortedUnits(inputs)
    return units.withUnsafeBufferPointer { units in
        var checksum = 0
        for index in 1..<starts.count - 1 {
            let previous = units.baseAddress! + starts[index - 1], key = units.baseAddress! + starts[index]
            let limit = min(starts[index] - starts[index - 1], starts[index + 1] - starts[index])
            checksum &+= shared(previous, key, limit)
        }
        return checksum
    }
}

nonisolated(unsafe) var sortedUnitsMade: ([UInt16], [Int])?

/// The sorted keys one after another, and where each starts (and the last ends).
func sortedUnits(_ inputs: Inputs) -> ([UInt16], [Int]) {
    if let made = sortedUnitsMade { return made }
    var units: [UInt16] = [], starts = [0]
    for key in inputs.sortedKeys {
        units += key
        starts.append(units.count)
    }
    sortedUnitsMade = (units, starts)
    return (units, starts)
}
