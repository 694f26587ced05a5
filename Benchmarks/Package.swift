// swift-tools-version:6.0
import PackageDescription

// The benchmarks, a package of their own so that `swift build` in the repository builds none of
// them: `swift build -c release --package-path Benchmarks` (Benchmarks/bench.py does) builds
// them against the root package's library products.
//
// SwiftPM names a package found by its path after its folder, whatever the folder is called
// (a clone, a worktree), so the root's identity is read from this package's own path.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "rolodeck")
// As the root package's `rolodeck` links it.
let linksJemalloc = Context.environment["ROLODECK_SYSTEM_MALLOC"] == nil

let package = Package(
    name: "RolodeckBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // One compiled page rendered 100,000 times with different contexts.
        .executableTarget(name: "mustache-bench", dependencies: [.product(name: "Mustache", package: root)]),
        // Sorting and sectioning 100,000 names in several locales.
        .executableTarget(
            name: "locale-bench", dependencies: [.product(name: "RolodeckLocale", package: root)]),
        // Each byte kernel against its plain Swift alternative, on the sizes a build sees.
        .executableTarget(
            name: "kernel-bench", dependencies: [.product(name: "ByteKernels", package: root)]),
        // What a status and a read of a file cost: the floors under an unchanged build and `check`.
        .executableTarget(name: "syscall-bench"),
        // Decoding a store's files already read: `check` and a cold build without the kernel.
        // It allocates with jemalloc and its options, as the command does unless told not to.
        .executableTarget(
            name: "decode-bench",
            dependencies: [
                .product(name: "RolodeckStore", package: root), .product(name: "RolodeckCore", package: root),
            ] + (linksJemalloc ? [.product(name: "RolodeckAllocator", package: root)] : []),
            linkerSettings: linksJemalloc ? [.linkedLibrary("jemalloc")] : []),
    ]
)
