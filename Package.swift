// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "pindrop",
    products: [
        // libpindrop.so: the C ABI of include/pindrop.h.
        .library(name: "pindrop", type: .dynamic, targets: ["Pindrop"]),
    ],
    targets: [
        // The hand-written C contract, imported into Swift so the exports use its exact types.
        .systemLibrary(name: "CPindrop", path: "include"),
        // GEOS's C API (libgeos-dev).
        .systemLibrary(name: "CGEOS", path: "Sources/CGEOS", pkgConfig: "geos",
                       providers: [.apt(["libgeos-dev"])]),
        // Pure Swift: geodesy, camera, pins, gestures, spreading, editing. No C types, no GEOS.
        .target(name: "PindropCore"),
        // The only place that knows GEOS: the spatial index and allowed areas.
        .target(name: "PindropGEOSIndex", dependencies: ["PindropCore", "CGEOS"]),
        // The spatial index and allowed areas in plain Swift: the WebAssembly module's (make wasm),
        // which answers as PindropGEOSIndex does; built natively too, for the parity tests.
        .target(name: "PindropSwiftIndex", dependencies: ["PindropCore"]),
        // @_cdecl exports and nothing else.
        .target(name: "Pindrop", dependencies: ["CPindrop", "PindropCore", "PindropGEOSIndex"]),
        // Test doubles and oracles shared by the test targets (a brute-force index, a plain-Swift
        // polygon area); nothing of it ships in the library.
        .target(name: "PindropTestSupport", dependencies: ["PindropCore"], path: "Tests/Support"),
        .testTarget(name: "PindropCoreTests", dependencies: ["PindropCore", "PindropTestSupport"]),
        .testTarget(name: "PindropGEOSIndexTests", dependencies: ["PindropGEOSIndex", "PindropCore", "PindropTestSupport"]),
        .testTarget(name: "PindropSwiftIndexTests",
                    dependencies: ["PindropSwiftIndex", "PindropGEOSIndex", "PindropCore", "PindropTestSupport"]),
    ]
)

// Export only the pindrop_* symbols of the C contract from libpindrop.so.
// Release builds skip the run-time exclusivity checks of class properties (swift_beginAccess on
// every pin read in a query): benchmarks/bench_core.c measured them at about a tenth of a hit test.
for t in package.targets where ["PindropCore", "PindropGEOSIndex", "PindropSwiftIndex", "Pindrop"].contains(t.name) {
    t.swiftSettings = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
}
package.targets.first { $0.name == "Pindrop" }!.linkerSettings = [
    .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/include/pindrop.exports"]),
]

// PindropKit: the Swift API for Swift apps (docs/swift.md). Core with the plain-Swift index and
// area, so a consumer builds no GEOS target and needs no libgeos (SwiftPM builds only the targets
// a product needs).
package.products.append(.library(name: "PindropKit", targets: ["PindropKit"]))
package.targets += [
    .target(name: "PindropKit", dependencies: ["PindropCore", "PindropSwiftIndex"]),
    .testTarget(name: "PindropKitTests", dependencies: ["PindropKit"]),
]

// SwiftPM refuses a dependency pinned to a version whose product's targets carry unsafe flags, as
// Core's and the Swift index's release flag above is, unless its manifest declares tools version
// 6.2 or later (this one declares 5.9, which Xcode 15 and Swift 5.9 can read). Where this
// package is such a dependency (checked out by SwiftPM or Xcode under a "checkouts" folder, or
// downloaded from a registry), those two targets build without it: the app's release build keeps
// the run-time exclusivity checks, and this package's own builds are unchanged.
let folders = Context.packageDirectory.split(whereSeparator: { $0 == "/" || $0 == "\\" })
if folders.contains("checkouts") || (folders.contains("registry") && folders.contains("downloads")) {
    for t in package.targets where ["PindropCore", "PindropSwiftIndex"].contains(t.name) { t.swiftSettings = nil }
}
