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
/// was 17 % of the save's samples. A watch keeps what it frees for the next rebuild instead, and
/// stays as large as its largest rebuild made it (50 to 125 MB more at 100,000 contacts).
/// `build` keeps jemalloc's settings, so that memory it is done with goes back while it runs.
enum FreedMemory {
    /// The allocator's control function, as jemalloc's `mallctl` takes its arguments: a name,
    /// where to read the value and its length, the value to set and its length; 0 on success.
    typealias Control = (
        _ name: String, _ read: UnsafeMutableRawPointer?, _ readLength: UnsafeMutablePointer<Int>?,
        _ write: UnsafeMutableRawPointer?, _ writeLength: Int
    ) -> Int32

    /// Tells the allocator to keep the memory it frees, when it is jemalloc; does nothing with
    /// another allocator (the tests', or a sanitizer's).
    static func keep() {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "mallctl") else { return }
        typealias MallCtl =
            @convention(c) (
                UnsafePointer<CChar>, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
                UnsafeMutableRawPointer?, Int
            ) -> Int32
        let mallctl = unsafeBitCast(symbol, to: MallCtl.self)
        keep { mallctl($0, $1, $2, $3, $4) }
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
