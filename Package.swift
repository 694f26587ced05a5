// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Rolodeck",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RolodeckKit", targets: ["RolodeckKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .target(name: "CSystem"),
        .target(name: "RolodeckKit", dependencies: ["CCmark", "CSystem"]),
        .testTarget(name: "RolodeckKitTests", dependencies: ["RolodeckKit"]),
    ]
)
