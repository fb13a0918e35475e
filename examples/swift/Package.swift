// swift-tools-version:5.9
// A Swift app's package using pindrop's Swift API (docs/swift.md). It depends on the checkout
// it sits in, by path; an app elsewhere names the repository's URL instead.
import PackageDescription

let package = Package(
    name: "tree-drag",
    dependencies: [
        .package(name: "pindrop", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "TreeDrag", dependencies: [.product(name: "PindropKit", package: "pindrop")]),
    ]
)
