#if canImport(Glibc)
    import Glibc
#endif

/// How long the command's allocator keeps memory that was freed before it gives it back to the
/// system, for `watch` and `serve`.
///
/// jemalloc (linked into the command, `RolodeckAllocator`) gives freed pages back after a
/// second, and blocks of 8 MB or more at once. A rebuild then gets new pages for what the one
/// before it freed, and the kernel clears every new page first: a name saved in one 66 MB
/// `contacts.vcf` at 100,000 contacts read the file into 66 MB of new pages, and clearing pages
/// was 17 % of the save's samples. A watch keeps what it frees for the next rebuild instead, as
/// large as its largest rebuild made it (50 to 125 MB more at 100,000 contacts), and gives it
/// back once no change has come for `idleTime` (`giveBack`): a watch left running does not hold
/// its peak. The save after that takes new pages again (a name in a 70 MB `contacts.json`: 0.45
/// s, against 0.25 s with the memory kept), so the wait is long enough that saves while someone
/// edits the store keep it. `build` keeps jemalloc's settings, so that memory it is done with
/// goes back while it runs.
enum FreedMemory {
    /// How long a watch waits for a change before it gives back the memory it kept.
    static let idleTime = Duration.seconds(300)

    /// The allocator's control function, as jemalloc's `mallctl` takes its arguments: a name,
    /// where to read the value and its length, the value to set and its length; 0 on success.
    typealias Control = (
        _ name: String, _ read: UnsafeMutableRawPointer?, _ readLength: UnsafeMutablePointer<Int>?,
        _ write: UnsafeMutableRawPointer?, _ writeLength: Int
    ) -> Int32

    /// Tells the allocator to keep the memory it frees, when it is jemalloc; does nothing with
    /// another allocator (the tests', or a sanitizer's).
    static func keep() {
        allocatorControl.map { keep($0) }
    }

    /// Gives the memory kept since the last call back to the system, when the allocator is
    /// jemalloc.
    static func giveBack() {
        allocatorControl.map { giveBack($0) }
    }

    /// Writes a block of `bytes`, then frees it, when the allocator is jemalloc (after `keep`,
    /// it keeps the block's pages): made as `SiteReader` makes the buffer it reads a file of
    /// `bytes - 1` into, the block is the memory the next such read takes.
    ///
    /// A watch whose first build found the output up to date freed little, so the first save
    /// read a large store file into pages the kernel had to clear first: at 100,000 contacts in
    /// one 70 MB `contacts.json`, a phone number saved first took 0.23 to 0.25 s, the saves
    /// after it 0.06 to 0.07 s; with the block written while idle, 0.07 to 0.10 s
    /// (docs/performance.md, twenty-fifth pass). Blocks for the rest of a save's memory (128 MB
    /// more, in 4 MB or 512 KB pieces) did not make the first save quicker in a file per contact
    /// and were not kept.
    static func warm(bytes: Int) {
        guard allocatorControl != nil, bytes > 0 else { return }
        let block = [UInt8](unsafeUninitializedCapacity: bytes) { buffer, count in
            // A write the compiler cannot leave out, though the block is freed at once.
            if let start = buffer.baseAddress { explicit_bzero(start, bytes) }
            count = bytes
        }
        withExtendedLifetime(block) {}
    }

    /// jemalloc's `mallctl`, found at run time; nil with another allocator. (Set once, then only
    /// called: jemalloc's control is safe from any thread.)
    nonisolated(unsafe) private static let allocatorControl: Control? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "mallctl") else { return nil }
        typealias MallCtl =
            @convention(c) (
                UnsafePointer<CChar>, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
                UnsafeMutableRawPointer?, Int
            ) -> Int32
        let mallctl = unsafeBitCast(symbol, to: MallCtl.self)
        return { mallctl($0, $1, $2, $3, $4) }
    }()

    /// Purges, through `control`, the freed pages of every arena (`MALLCTL_ARENAS_ALL`, 4096).
    static func giveBack(_ control: Control) {
        _ = control("arena.4096.purge", nil, nil, nil, 0)
    }

    /// Sets, through `control`, how long freed pages stay before they go back to the system, to
    /// forever: the default of the arenas made from now on, which includes the one for blocks
    /// of 8 MB or more (made when the first is asked for, it gives them back at once only when
    /// the default is above zero), then each arena there is.
    static func keep(_ control: Control) {
        var never = -1  // milliseconds, jemalloc's ssize_t
        let size = MemoryLayout<Int>.size
        _ = control("arenas.dirty_decay_ms", nil, nil, &never, size)
        var count: UInt32 = 0
        var length = MemoryLayout<UInt32>.size
        guard control("arenas.narenas", &count, &length, nil, 0) == 0 else { return }
        for arena in 0..<count {
            // An index no arena was made for yet is refused; it takes the default when made.
            _ = control("arena.\(arena).dirty_decay_ms", nil, nil, &never, size)
        }
    }
}
