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

    /// Writes blocks of memory, then frees them, when the allocator is jemalloc (after `keep`,
    /// it keeps their pages): one made as `SiteReader` makes the buffer it reads a file of
    /// `largestFile` bytes into, which the next such read takes, and `savingBytesPerContact` for
    /// each of `contacts` more in blocks of 4 MB, which the next save's other new memory takes.
    ///
    /// A watch whose first build found the output up to date freed little, so its first save
    /// took new pages the kernel clears first: for the read of a large store file, for the
    /// search index's pieces, for the directory put in its new order. At 100,000 contacts, after
    /// such a start, in one 70 MB `contacts.json`, a phone number saved first took 0.23 to
    /// 0.25 s (the saves after it 0.06 to 0.07 s) and 0.07 to 0.10 s with the read's block; a
    /// name 0.29 to 0.33 s with that block and 0.23 to 0.25 s with 128 MB more (the saves after
    /// it 0.19 to 0.26 s); with a file per contact a name 0.28 to 0.37 s, and 0.27 s with the
    /// 128 MB (docs/performance.md, twenty-fifth pass).
    static func warm(largestFile: Int, contacts: Int) {
        guard allocatorControl != nil else { return }
        // `SiteReader.readToEnd` asks for one byte more than the file's size.
        let reading = max(largestFile, 0) + 1
        let saving = max(contacts, 0) * savingBytesPerContact
        // All alive at once, so that each is new memory, then freed together.
        var blocks = [written(reading)]
        for _ in 0..<(saving + warmingBlock - 1) / warmingBlock {
            blocks.append(written(warmingBlock))
        }
        withExtendedLifetime(blocks) {}
    }

    /// What `warm` writes beyond the read's block, for each contact of the site: 128 MB at
    /// 100,000 contacts, about what a first save after an up-to-date start took new (its
    /// resident size grew by 86 to 145 MB).
    private static let savingBytesPerContact = 1_280

    /// The size of `warm`'s blocks for a save's other memory: under jemalloc's 8 MB, above which
    /// blocks come from an arena of their own.
    private static let warmingBlock = 4 << 20

    /// A block of `bytes`, every byte written.
    private static func written(_ bytes: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes) { buffer, count in
            // A write the compiler cannot leave out, though the block is freed at once.
            if let start = buffer.baseAddress { explicit_bzero(start, bytes) }
            count = bytes
        }
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
