// swift-tools-version: 6.0
// The Swift binding of liboblivex (C ABI 0.2). Swift 6 language mode (strict
// concurrency); no dependency beyond the toolchain. The C library is found
// through pkg-config ("oblivex", installed by the library's CMake install):
// see README.md.
import PackageDescription

let package = Package(
    name: "Oblivex",
    products: [
        .library(name: "Oblivex", targets: ["Oblivex"]),
    ],
    targets: [
        // The installed oblivex.h and liboblivex, through pkg-config.
        .systemLibrary(name: "COblivex", pkgConfig: "oblivex"),
        .target(name: "Oblivex", dependencies: ["COblivex"]),
        .testTarget(name: "OblivexTests", dependencies: ["Oblivex", "COblivex"]),
    ],
    swiftLanguageModes: [.v6]
)
