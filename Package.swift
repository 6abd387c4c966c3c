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
        .library(name: "ParleyKit", targets: ["ParleyKit"]),
        .executable(name: "parley-fuzz", targets: ["parley-fuzz"]),
        .library(name: "ParleyNet", targets: ["ParleyNet"]),
        .library(name: "ParleyProtocol", targets: ["ParleyProtocol"]),
        .library(name: "ParleySQL", targets: ["ParleySQL"]),
        .library(name: "ParleySQLite", targets: ["ParleySQLite"]),
        .library(name: "ParleyPostgres", targets: ["ParleyPostgres"]),
        .library(name: "ParleyXMPP", targets: ["ParleyXMPP"]),
        .library(name: "ParleyCluster", targets: ["ParleyCluster"]),
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
            name: "CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // Image thumbnails (docs/protocol.md, "Thumbnails"): JPEG through libjpeg-turbo's
        // TurboJPEG API, PNG through libpng's simplified API; only ParleyServer imports them.
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // A mutex ThreadSanitizer can see (pthread-based; `Synchronization.Mutex` uses raw
        // futexes), shared by every Swift target. Imports nothing of the project.
        .target(
            name: "ParleySync",
            swiftSettings: strictSwift
        ),
        // The XMPP gateway's XML parser (with DTDs and entities refused); only ParleyXMPP
        // imports it. OpenSSL: TLS for every listener and client, and the crypto SCRAM needs
        // (SHA, HMAC, PBKDF2, random bytes); only ParleyNet imports it.
        .systemLibrary(
            name: "CExpat",
            pkgConfig: "expat",
            providers: [.apt(["libexpat1-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // The NATS client, for the cluster delivery. Only ParleyCluster imports it.
        .systemLibrary(
            name: "CNATS",
            providers: [.apt(["libnats-dev"])]
        ),
        // LMDB, for ParleyLog's LMDB implementation of the message log. Only ParleyLog imports it.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // The durable message log prototypes (docs/benchmarks.md, "(i)"): a `MessageLog`
        // protocol, a purpose-built segment log with group commit, and the same on LMDB.
        // Imports nothing of Parley but the lock, so it can be measured and crash-tested alone.
        .target(
            name: "ParleyLog",
            dependencies: ["ParleySync", "CLMDB"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleyNet",
            dependencies: ["ParleySync", "CParleySystem", "CHTTPParser", "COpenSSL"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleyProtocol",
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleyCore",
            dependencies: ["ParleyProtocol", "ParleySync"],
            swiftSettings: strictSwift
        ),
        // What both stores share and nothing else needs: the store engine (`ThreadedStore`:
        // threads, job queues, lifecycle, group commit) each backend plugs into, each record
        // read from its columns (through `StoreRow`), and the JSON coding of the columns that
        // hold lists and message bodies.
        .target(
            name: "ParleyStoreSupport",
            dependencies: ["ParleyCore", "ParleyProtocol", "ParleySync"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleySQL",
            dependencies: ["CSQLite"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleySQLite",
            // ParleyProtocol for the ids in ParleyCore's stored types (`UserID`); ParleyLog for
            // the segment log that can be the durability point of message inserts.
            dependencies: ["ParleyCore", "ParleyProtocol", "ParleySQL", "ParleyStoreSupport", "ParleySync", "ParleyLog"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleyPostgres",
            // ParleyProtocol for the ids in ParleyCore's stored types (`UserID`).
            dependencies: ["ParleyCore", "ParleyProtocol", "ParleyStoreSupport", "ParleySync", "CPostgres"],
            swiftSettings: strictSwift
        ),
        // The Jabber (XMPP) gateway: client streams on ParleyNet's TCP connections, every
        // stanza mapped onto ParleyCore's services (docs/xmpp.md). ParleyServer starts it.
        .target(
            name: "ParleyXMPP",
            dependencies: ["ParleyNet", "ParleyCore", "ParleyProtocol", "ParleySync", "CExpat"],
            swiftSettings: strictSwift
        ),
        // Several servers on one PostgreSQL database acting as one: the core's `Delivery` over
        // NATS, with who-is-connected-where from every node's heartbeats.
        .target(
            name: "ParleyCluster",
            dependencies: ["ParleyCore", "ParleyProtocol", "ParleySync", "CNATS"],
            swiftSettings: strictSwift
        ),
        .target(
            name: "ParleyServer",
            dependencies: ["ParleyNet", "ParleyProtocol", "ParleyCore", "ParleySQLite", "ParleyPostgres", "ParleyXMPP", "ParleyCluster", "ParleySync", "CSodium",
                           "CTurboJPEG", "CPNG"],
            swiftSettings: strictSwift
        ),
        // The client SDK. ParleyNet (epoll) exists only on Linux; Apple platforms use
        // URLSessionWebSocketTask instead.
        .target(
            name: "ParleyKit",
            dependencies: ["ParleyProtocol", "ParleySQL", "ParleySync",
                           .target(name: "ParleyNet", condition: .when(platforms: [.linux]))],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "parley",
            dependencies: ["ParleyNet", "ParleyServer", "ParleyKit", "ParleyProtocol", "ParleySync"],
            swiftSettings: strictSwift
        ),
        // Load generator and measurements (docs/benchmarks.md): ParleyNet for the transport,
        // ParleyProtocol for the native protocol's types.
        // ParleyLog, ParleySQLite and ParleyCore for `log-append` and `log-crash`: the message
        // log prototypes beside the real store's insert path; ParleyLog and ParleyStoreSupport
        // (its thread and job queue) for the durable relay.
        .executableTarget(
            name: "parley-bench",
            dependencies: ["ParleyNet", "ParleyProtocol", "ParleySync", "ParleyLog", "ParleySQLite", "ParleySQL", "ParleyCore", "ParleyPostgres",
                           "ParleyStoreSupport"],
            swiftSettings: strictSwift
        ),
        // Fuzz harnesses for every parser (docs/fuzzing.md). A normal build replays inputs
        // (`parley-fuzz <target> <files>`); `make fuzz` builds it with -DFUZZING and
        // -sanitize=fuzzer, which turns it into a libFuzzer driver.
        .executableTarget(
            name: "parley-fuzz",
            dependencies: ["ParleyNet", "ParleyProtocol", "ParleyCore", "ParleyXMPP"],
            path: "Fuzz/parley-fuzz",
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleySyncTests",
            dependencies: ["ParleySync"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyNetTests",
            dependencies: ["ParleyNet", "CParleySystem", "ParleySync", "TestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyProtocolTests",
            dependencies: ["ParleyProtocol"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyCoreTests",
            // ParleySQLite: services run against the real store in a temporary file (the
            // contract suite keeps both stores honest); the delivery is a recording fake.
            dependencies: ["ParleyCore", "ParleyProtocol", "ParleySync", "ParleySQLite", "CoreTestSupport", "TestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyXMPPTests",
            // ParleySQLite: handlers run against the real core services over a temporary store.
            dependencies: ["ParleyXMPP", "ParleyCore", "ParleyProtocol", "ParleyNet", "ParleySync", "ParleySQLite", "CoreTestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyClusterTests",
            dependencies: ["ParleyCluster", "ParleyCore", "ParleyProtocol"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyLogTests",
            dependencies: ["ParleyLog"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleySQLTests",
            dependencies: ["ParleySQL", "ParleySync"],
            swiftSettings: strictSwift
        ),
        // What several test targets share (waiting without hanging, a test certificate); a
        // library, not a test target, so that several test targets can use it.
        // Stand-ins for the core's dependencies (a recording Delivery, in-place blocking work,
        // counting secrets, a test clock) for the tests that run services without a server.
        .target(
            name: "CoreTestSupport",
            dependencies: ["ParleyCore", "ParleyProtocol", "ParleySync"],
            path: "Tests/CoreTestSupport",
            swiftSettings: strictSwift
        ),
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: strictSwift
        ),
        // The store engine (`ThreadedStore`) against an in-memory backend that records its
        // transaction statements; the contract suite runs it on the real backends.
        .testTarget(
            name: "ParleyStoreSupportTests",
            dependencies: ["ParleyStoreSupport", "ParleyCore", "ParleySync", "TestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleySQLiteTests",
            dependencies: ["ParleySQLite", "ParleyCore", "ParleySQL", "ParleyProtocol", "ParleyLog", "ParleySync", "TestSupport"],
            swiftSettings: strictSwift
        ),
        // The store contract (the same tests on SQLiteStore and PostgresStore) and the tests
        // only PostgreSQL has: several stores ("nodes") on one database. Each test process
        // starts its own PostgreSQL server in a temporary directory.
        .testTarget(
            name: "ParleyPostgresTests",
            dependencies: ["ParleyPostgres", "ParleySQLite", "ParleySQL", "ParleyCore", "ParleyProtocol", "ParleySync", "TestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyKitTests",
            dependencies: ["ParleyKit", "ParleyProtocol", "ParleyServer", "ParleyNet", "ParleySync", "TestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "parleyTests",
            dependencies: ["parley"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "parley-benchTests",
            // ParleyServer to run a real small server for the scenarios' setup.
            dependencies: ["parley-bench", "ParleyServer", "ParleyNet", "ParleySync", "TestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ParleyServerTests",
            dependencies: ["ParleyServer", "ParleyNet", "ParleyCore", "ParleyProtocol", "ParleySQL", "ParleySQLite", "ParleySync", "ParleyXMPP", "TestSupport"],
            swiftSettings: strictSwift
        ),
    ],
    swiftLanguageModes: [.v6]
)
