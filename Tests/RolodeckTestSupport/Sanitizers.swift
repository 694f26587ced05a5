import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a test needs to know about the sanitizer this test process (and so the `rolodeck` it
/// runs, built by the same `swift test --sanitize=…`) was built with.
public enum Sanitizers {
    /// Whether ThreadSanitizer's runtime is in this process: its entry point is exported from the
    /// executable (the runtime's symbols are, so its interceptors can replace libc's).
    public static let thread: Bool = exported("__tsan_init")

    /// Whether AddressSanitizer's runtime is in this process.
    public static let address: Bool = exported("__asan_init")

    /// The variables that configure the sanitizers' runtimes (`ASAN_OPTIONS`, `LSAN_OPTIONS`,
    /// `TSAN_OPTIONS`, `UBSAN_OPTIONS`) as this process has them: what a test that gives a child
    /// a made-up environment must pass on, or the child runs without the suppressions
    /// `make test-asan` sets and reports the known leaks as errors.
    public static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
    }

    private static func exported(_ symbol: String) -> Bool {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(program, symbol) != nil
    }
}
