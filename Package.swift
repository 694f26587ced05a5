// swift-tools-version:6.0
import PackageDescription

// The pipeline is one target per stage, so the compiler refuses a dependency that runs the wrong
// way (docs/architecture.md draws the graph):
//
//   ByteKernels       the byte buffer and word-at-a-time kernels the stages below share
//   RolodeckCore      diagnostics, source text, the model, the config, parallel work
//   RolodeckStore     reading a site folder; the JSON, vCard, iCalendar and config readers
//   RolodeckLocale    collation, sections, phone numbers, interface strings
//   RolodeckMarkdown  notes through libcmark
//   RolodeckPlan      the directory: sorted, sectioned, slugs, groups and todos resolved
//   RolodeckSearch    the search index of a planned directory
//   RolodeckSite      a whole site in memory: load, plan, render pages and files
//   RolodeckPublish   writing an output folder atomically, or patching it
//   RolodeckBuild     SiteBuild: reads a site folder and publishes it, once or on every change
//   RolodeckWatch     inotify (or polling) over a site folder
//   RolodeckServe     the preview server with live reload
//   RolodeckCLI       arguments, commands, printing; `rolodeck` is its main.swift
// The sanitizer runs of the tests (`make test-asan`, `make test-tsan`) set ROLODECK_SYSTEM_MALLOC:
// a sanitizer brings its own malloc, and jemalloc linked beside it hands the sanitizer memory it
// did not allocate (ThreadSanitizer stops the command with a CHECK failure in its allocator).
let linksJemalloc = Context.environment["ROLODECK_SYSTEM_MALLOC"] == nil

let package = Package(
    name: "Rolodeck",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "rolodeck", targets: ["rolodeck"]),
        .library(name: "Mustache", targets: ["Mustache"]),
        // For the benchmarks, a package of their own in Benchmarks/ that `swift build` here
        // leaves alone.
        .library(name: "RolodeckLocale", targets: ["RolodeckLocale"]),
        .library(name: "ByteKernels", targets: ["ByteKernels"]),
        // For the fuzz targets, a package of their own in Fuzz/ that `swift build` here leaves
        // alone as well.
        .library(name: "RolodeckCore", targets: ["RolodeckCore"]),
        .library(name: "RolodeckStore", targets: ["RolodeckStore"]),
        .library(name: "RolodeckMarkdown", targets: ["RolodeckMarkdown"]),
        .library(name: "RolodeckServe", targets: ["RolodeckServe"]),
        // For the decode benchmark, which allocates as the command does.
        .library(name: "RolodeckAllocator", targets: ["RolodeckAllocator"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        // libqrencode, which made the contact pages' QR codes before QREncoder did: the tests
        // compare the two, module for module (only `QREncoderTests.swift` imports it). The
        // command does not link it.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // Contact photos' thumbnails (and upright copies of turned JPEGs), made by libvips, which
        // it loads with `dlopen` when a photo needs it (Debian's libvips42 at run time; no
        // header or link at build time); only `PhotoImages.swift` imports it.
        .target(name: "CVips"),
        // DWARF 4 for the C files: Debian 12's valgrind (3.19) cannot read the DWARF 5 clang
        // writes, and gives up on the whole binary; callgrind is how docs/performance.md profiles.
        .target(name: "CSystem", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // The byte buffer, short copies and word-at-a-time byte tests that the renderer, the
        // search index and the readers run in their hottest loops, written once (and inlined
        // across modules). It is the Mustache engine's one dependency: the engine's output buffer
        // and its escaping scan are these kernels, and a copy of them in the engine would be
        // the same code twice.
        .target(name: "ByteKernels"),
        .target(name: "Mustache", dependencies: ["ByteKernels"]),
        // Templates/ and Public/ are linked into this target so SwiftPM embeds their bytes in
        // the binary (and notices every edit, addition and removal).
        .target(
            name: "RolodeckTheme",
            resources: [.embedInCode("Templates"), .embedInCode("Public")]
        ),

        .target(name: "RolodeckCore", dependencies: ["ByteKernels"]),
        .target(name: "RolodeckStore", dependencies: ["RolodeckCore", "ByteKernels", "CSystem"]),
        .target(name: "RolodeckLocale", dependencies: ["RolodeckCore"]),
        .target(name: "RolodeckMarkdown", dependencies: ["CCmark", "CSystem"]),
        .target(name: "RolodeckPlan", dependencies: ["RolodeckCore", "RolodeckLocale"]),
        .target(
            name: "RolodeckSearch",
            dependencies: ["RolodeckCore", "RolodeckLocale", "RolodeckPlan", "ByteKernels"]),
        .target(
            name: "RolodeckSite",
            dependencies: [
                "RolodeckCore", "RolodeckStore", "RolodeckLocale", "RolodeckMarkdown", "RolodeckPlan",
                "RolodeckSearch", "Mustache", "RolodeckTheme", "CVips",
            ]),
        .target(name: "RolodeckPublish", dependencies: ["RolodeckCore", "CSystem"]),
        .target(
            name: "RolodeckBuild",
            dependencies: [
                "RolodeckCore", "RolodeckStore", "RolodeckPlan", "RolodeckSearch", "RolodeckSite",
                "RolodeckPublish",
            ]),
        .target(name: "RolodeckWatch", dependencies: ["RolodeckCore"]),
        .target(
            name: "RolodeckServe", dependencies: ["RolodeckCore"], resources: [.embedInCode("Resources")]),
        // `rolodeck --version` names the revision it was built from: the SourceRevision plugin
        // writes it from `git describe` before every build (nil outside a checkout).
        .plugin(name: "SourceRevision", capability: .buildTool()),
        .target(
            name: "RolodeckCLI",
            dependencies: [
                "RolodeckCore", "RolodeckStore", "RolodeckSite", "RolodeckPublish", "RolodeckBuild",
                "RolodeckWatch",
                "RolodeckServe", "CSystem",
            ],
            plugins: ["SourceRevision"]),
        // jemalloc instead of glibc's malloc: a build allocates and frees millions of small
        // objects on every core, which jemalloc's per-thread caches serve far more cheaply
        // (docs/performance.md). Linked by the command only; the libraries leave the choice to
        // whoever links them.
        .executableTarget(
            name: "rolodeck", dependencies: ["RolodeckCLI"] + (linksJemalloc ? ["RolodeckAllocator"] : []),
            linkerSettings: linksJemalloc ? [.linkedLibrary("jemalloc")] : []
        ),
        // The options jemalloc starts with (allocator.c says which and why).
        .target(name: "RolodeckAllocator"),

        // Helpers the tests share: a raw-socket HTTP client for the preview server, and the
        // package's folders and scratch space.
        .target(name: "HTTPTestClient", path: "Tests/HTTPTestClient"),
        .target(name: "RolodeckTestSupport", path: "Tests/RolodeckTestSupport"),
        .testTarget(name: "ByteKernelsTests", dependencies: ["ByteKernels"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(name: "RolodeckCoreTests", dependencies: ["RolodeckCore", "RolodeckTestSupport"]),
        .testTarget(
            name: "RolodeckStoreTests",
            dependencies: ["RolodeckCore", "RolodeckStore", "RolodeckTestSupport"]),
        .testTarget(name: "RolodeckLocaleTests", dependencies: ["RolodeckCore", "RolodeckLocale"]),
        .testTarget(
            name: "RolodeckMarkdownTests", dependencies: ["RolodeckMarkdown", "RolodeckTestSupport"]),
        .testTarget(
            name: "RolodeckPlanTests",
            dependencies: ["RolodeckCore", "RolodeckLocale", "RolodeckPlan", "RolodeckStore", "RolodeckTestSupport"]),
        // Search reads what the site's list rows worked out, so its tests make those rows.
        .testTarget(
            name: "RolodeckSearchTests",
            dependencies: [
                "RolodeckCore", "RolodeckLocale", "RolodeckPlan", "RolodeckSearch", "RolodeckSite",
                "RolodeckTestSupport", "Mustache",
            ],
            exclude: ["folding-cases.json"]),
        .testTarget(
            name: "RolodeckSiteTests",
            dependencies: [
                "RolodeckCore", "RolodeckStore", "RolodeckLocale", "RolodeckPlan", "RolodeckSearch",
                "RolodeckSite",
                "RolodeckTestSupport", "Mustache", "RolodeckTheme", "CQRencode",
            ],
            exclude: ["Snapshots"]),
        .testTarget(name: "RolodeckPublishTests", dependencies: ["RolodeckPublish", "RolodeckTestSupport"]),
        .testTarget(
            name: "RolodeckBuildTests",
            dependencies: [
                "RolodeckCore", "RolodeckStore", "RolodeckSite", "RolodeckPublish", "RolodeckBuild",
                "RolodeckTestSupport",
            ]),
        .testTarget(name: "RolodeckWatchTests", dependencies: ["RolodeckWatch", "RolodeckTestSupport"]),
        .testTarget(
            name: "RolodeckServeTests",
            dependencies: ["RolodeckCore", "RolodeckServe", "HTTPTestClient", "RolodeckTestSupport"]),
        .testTarget(
            name: "RolodeckCLITests", dependencies: ["RolodeckCLI", "HTTPTestClient", "RolodeckTestSupport"]),
    ]
)
