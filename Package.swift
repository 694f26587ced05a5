// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Rolodeck",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "rolodeck", targets: ["rolodeck"]),
        .library(name: "Mustache", targets: ["Mustache"]),
        .library(name: "RolodeckKit", targets: ["RolodeckKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        // DWARF 4 for the C files: Debian 12's valgrind (3.19) cannot read the DWARF 5 clang
        // writes for note_arena.c and gives up on the whole binary, and callgrind is how
        // docs/performance.md profiles a build.
        .target(name: "CSystem", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .target(name: "Mustache"),
        // Templates/ and Public/ are linked into this target so SwiftPM embeds their bytes in
        // the binary (and notices every edit, addition and removal).
        .target(
            name: "RolodeckTheme",
            resources: [.embedInCode("Templates"), .embedInCode("Public")]
        ),
        .target(name: "RolodeckKit", dependencies: ["CCmark", "CSystem", "Mustache", "RolodeckTheme"]),
        .target(name: "RolodeckCLI", dependencies: ["RolodeckKit"]),
        // jemalloc instead of glibc's malloc: a build allocates and frees millions of small
        // objects on every core, and glibc's allocator was a tenth of its CPU time
        // (docs/performance.md). Linked by the command only; the libraries leave the choice to
        // whoever links them.
        .executableTarget(
            name: "rolodeck", dependencies: ["RolodeckCLI"], linkerSettings: [.linkedLibrary("jemalloc")]
        ),
        .executableTarget(name: "mustache-bench", dependencies: ["Mustache"]),
        .executableTarget(name: "locale-bench", dependencies: ["RolodeckKit"]),
        // A raw-socket HTTP client for the tests of the preview server (library and command).
        .target(name: "HTTPTestClient", path: "Tests/HTTPTestClient"),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(
            name: "RolodeckKitTests", dependencies: ["RolodeckKit", "HTTPTestClient"],
            exclude: ["Snapshots", "Search/folding-cases.json"]
        ),
        .testTarget(name: "RolodeckCLITests", dependencies: ["RolodeckCLI", "HTTPTestClient"]),
    ]
)
