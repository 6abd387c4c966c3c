// swift-tools-version:6.0
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Parley",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "parley", targets: ["parley"]),
        .executable(name: "parley-bench", targets: ["parley-bench"]),
        .library(name: "ParleyNet", targets: ["ParleyNet"]),
        .library(name: "ParleyProtocol", targets: ["ParleyProtocol"]),
        .library(name: "ParleySQL", targets: ["ParleySQL"]),
    ],
    targets: [
        // C headers and inline helpers for the Linux system calls Swift cannot reach directly
        // (variadic fcntl, epoll/eventfd/timerfd/signalfd, socket options).
        .target(name: "CParleySystem"),
        .systemLibrary(
            name: "CHTTPParser",
            providers: [.apt(["libhttp-parser-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        .target(
            name: "ParleyNet",
            dependencies: ["CParleySystem", "CHTTPParser"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleyProtocol",
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleyCore",
            dependencies: ["ParleyProtocol"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleySQL",
            dependencies: ["CSQLite"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleyServer",
            dependencies: ["ParleyNet", "ParleyProtocol", "ParleyCore", "CParleySystem", "CSodium"],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "parley",
            dependencies: ["ParleyNet", "ParleyServer"],
            swiftSettings: strictSwift
        ),
        // Load generator and measurements (docs/benchmarks.md). ParleyNet only for now; it
        // will add ParleyProtocol when it speaks Parley's native protocol.
        .executableTarget(
            name: "parley-bench",
            dependencies: ["ParleyNet"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyNetTests",
            dependencies: ["ParleyNet", "CParleySystem"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyProtocolTests",
            dependencies: ["ParleyProtocol"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyCoreTests",
            dependencies: ["ParleyCore", "ParleyProtocol"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleySQLTests",
            dependencies: ["ParleySQL"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "parley-benchTests",
            dependencies: ["parley-bench"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyServerTests",
            dependencies: ["ParleyServer", "ParleyNet"],
            swiftSettings: strictSwift
        ),
    ],
    swiftLanguageModes: [.v6]
)
