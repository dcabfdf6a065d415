// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Jukebox",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "jukebox", targets: ["Jukebox"]),
        .executable(name: "jukebox-board", targets: ["JukeboxBoard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The page on the phone: HTTP from Hummingbird over SwiftNIO (docs/web-server.md says why).
        // HummingbirdCore only, with no traits: Hummingbird's router and form coding link
        // the whole of Foundation (ICU included), which the box's binary must not.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // One systemLibrary target per C library: a module map over a one-line
        // umbrella header, flags from pkg-config, and the Debian -dev package to install.
        .systemLibrary(name: "CAlsa", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CGpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CFlac", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CMpg123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "CVorbis", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "COpus", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        // MPD's sticker database: the system's SQLite, as Debian ships it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The jingles' sample rate, converted once to the output's when they are asked for.
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        // Zeroconf: the box announced through the system's avahi-daemon, over D-Bus.
        // No pkgConfig: its flags carry -D_REENTRANT, which SwiftPM warns of on every build;
        // the module map names the two libraries to link.
        .systemLibrary(name: "CAvahi", providers: [.apt(["libavahi-client-dev"])]),
        // C++ only: Swift reaches it through CJukeboxStretch.
        .systemLibrary(name: "CSoundTouch", pkgConfig: "soundtouch", providers: [.apt(["libsoundtouch-dev"])]),
        // Headers only: libcurl is loaded with dlopen on the first URL (CJukeboxShim/curl.c).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Headers only: FFmpeg is loaded with dlopen on the first MP4 file (CJukeboxShim/ffmpeg.c).
        .systemLibrary(name: "CFFmpeg", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]),
        // Headers only: libnfc (the PN532 card reader) is loaded with dlopen when a PN532
        // reader starts (CJukeboxShim/nfc.c). No pkgConfig: its flags would link libnfc
        // and libusb into every binary.
        .systemLibrary(name: "CNfc", providers: [.apt(["libnfc-dev"])]),

        // C that Swift cannot express: alsa-lib's variadic error handler, ioctl macros,
        // libjpeg's and libpng's long-jumping errors, libcurl's variadic options, FFmpeg and libnfc loaded on first use.
        .target(
            name: "CJukeboxShim", dependencies: ["CAlsa", "CJPEG", "CPNG", "CCurl", "CFFmpeg", "CNfc"],
            // GnuTLS, loaded with libcurl, looks this hook up in the program (curl.c says why).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=_gnutls_global_init_skip"])]
        ),

        // SoundTouch's time stretch (playback speed, pitch kept) behind a C API.
        .target(name: "CJukeboxStretch", dependencies: ["CSoundTouch"]),

        // `jukebox run`'s first act, before any library starts: hold the signals it handles.
        // The executable's alone (the tests link JukeboxCore, never this).
        .target(name: "CJukeboxStart"),

        // Everything the daemon does lives here, so the executable and the tests share it.
        .target(
            name: "JukeboxCore",
            dependencies: [
                "CAlsa", "CGpiod", "CFlac", "CMpg123", "CVorbis", "COpus", "CSystemd", "CFreeType", "CPNG", "CDRM", "CCurl", "CFFmpeg", "CNfc", "CSQLite", "CSoxr", "CAvahi", "CJukeboxShim", "CJukeboxStretch",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "Jukebox",
            dependencies: [
                "JukeboxCore", "CJukeboxStart",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Recording and analysis for the virtual-board scenarios (Tests/VirtualBoard).
        .executableTarget(
            name: "JukeboxBoard",
            dependencies: [
                "JukeboxCore", "CJukeboxShim",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libjpeg's encoder, for the tests' own JPEG covers (progressive, CMYK, YCCK).
        .target(name: "CJPEGFixtures", dependencies: ["CJPEG"], path: "Tests/CJPEGFixtures"),
        .testTarget(
            name: "JukeboxCoreTests",
            dependencies: ["JukeboxCore", "Jukebox", "CJPEGFixtures"],
            // The screen's golden images and the differences from MPD the protocol test
            // allows, read from the source tree by path.
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
