// swift-tools-version:6.0
import PackageDescription

// The libFuzzer targets, a package of their own so that `swift build` and `swift test` in the
// repository build none of them: `make fuzz` builds them with
// `swift build -c release --package-path Fuzz --sanitize fuzzer --sanitize address
// -Xswiftc -enable-testing --disable-dead-strip` and runs each (Fuzz/run_fuzzers.py,
// docs/fuzzing.md).
//
// Each target is an executable whose `main` is libFuzzer's; the Swift side is one
// `LLVMFuzzerTestOneInput`. The readers' entry points are internal to their module, so the
// targets reach them with `@testable import`, which is why the build passes `-enable-testing`.
//
// SwiftPM names a package found by its path after its folder, whatever the folder is called
// (a clone, a worktree), so the root's identity is read from this package's own path.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "rolodeck")

let package = Package(
    name: "RolodeckFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // Turning libFuzzer's pointer into bytes, and the invariants every target checks.
        .target(name: "FuzzSupport", dependencies: [.product(name: "RolodeckCore", package: root)]),
        // The JSON parser, and the store decoder over a JSON store file of each kind and layout.
        .executableTarget(
            name: "fuzz-json",
            dependencies: [
                "FuzzSupport", .product(name: "RolodeckCore", package: root),
                .product(name: "RolodeckStore", package: root),
            ]),
        // A `.vcf` file through the store decoder (content lines, vCard parser, fields, merge).
        .executableTarget(
            name: "fuzz-vcard",
            dependencies: [
                "FuzzSupport", .product(name: "RolodeckCore", package: root),
                .product(name: "RolodeckStore", package: root),
            ]),
        // A `.ics` file through the store decoder (content lines, iCalendar parser, todos).
        .executableTarget(
            name: "fuzz-icalendar",
            dependencies: [
                "FuzzSupport", .product(name: "RolodeckCore", package: root),
                .product(name: "RolodeckStore", package: root),
            ]),
        // `rolodeck.json` through the config decoder.
        .executableTarget(
            name: "fuzz-config",
            dependencies: [
                "FuzzSupport", .product(name: "RolodeckCore", package: root),
                .product(name: "RolodeckStore", package: root),
            ]),
        // Templates compiled and rendered by the Mustache engine.
        .executableTarget(
            name: "fuzz-mustache",
            dependencies: ["FuzzSupport", .product(name: "Mustache", package: root)]),
        // Notes through the libcmark wrapper: safe and unsafe HTML, plain text.
        .executableTarget(
            name: "fuzz-markdown",
            dependencies: ["FuzzSupport", .product(name: "RolodeckMarkdown", package: root)]),
        // A client's bytes through the preview server's request handling.
        .executableTarget(
            name: "fuzz-http",
            dependencies: ["FuzzSupport", .product(name: "RolodeckServe", package: root)]),
    ]
)
