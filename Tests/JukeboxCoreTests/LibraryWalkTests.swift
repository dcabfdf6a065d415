import Foundation
import Testing
@testable import JukeboxCore

/// What a hostile library holds: link loops, links to what is already there, names that are
/// not UTF-8 and names with a newline.
@Suite struct LibraryWalkTests {
    let fx = Fixtures.shared

    /// A fresh folder holding `names`, each a copy of a small FLAC.
    private func library(_ name: String, songs names: [String]) throws -> String {
        let root = try fx.scratchFolder(name)
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for song in names {
            let path = "\(root)/\(song)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: path)
        }
        return root
    }

    private func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// The scan on another thread, so a walk that never ends fails the test instead of hanging it.
    private func boundedScan(_ root: String) -> LibraryScan? {
        nonisolated(unsafe) var result: LibraryScan?
        let done = DispatchSemaphore(value: 0)
        Thread {
            result = LibraryScanner.scan(musicDirectory: root, playlistsDirectory: nil)
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 60) == .success else { return nil }
        return result
    }

    private func names(_ scan: LibraryScan, under root: String) -> [String] {
        scan.tracks.map { String($0.path.dropFirst(root.count + 1)) }
    }

    @Test func aLinkLoopAddsNothingAndIsReportedOnce() throws {
        let songs = ["1.flac", "2.flac", "3.flac", "4.flac"]
        let root = try library("loop", songs: songs)
        try link("\(root)/loop", to: ".")
        let scan = try #require(boundedScan(root))
        #expect(names(scan, under: root) == songs)
        #expect(scan.skipped == ["\(root)/loop: symbolic link loops back to a folder above it; not followed"])
    }

    @Test func aPlaylistsFolderThatIsTheMusicFolderIsWalkedOnce() throws {
        let root = try library("playlists-here", songs: ["1.flac"])
        try "1.flac\n".write(toFile: "\(root)/All.m3u", atomically: true, encoding: .utf8)
        try link("\(root)/loop", to: ".")
        let scan = LibraryScanner.scan(musicDirectory: root, playlistsDirectory: root)
        #expect(names(scan, under: root) == ["1.flac"])
        #expect(scan.playlists.map(\.name) == ["All"])
        #expect(scan.skipped.count == 1, "\(scan.skipped)")
    }

    @Test func twoLoopsStillEnd() throws {
        let songs = ["Album/1.flac", "Album/2.flac", "Album/3.flac", "Album/4.flac"]
        let root = try library("double-loop", songs: songs)
        try link("\(root)/Album/again", to: ".")
        try link("\(root)/Album/up", to: "..")
        let scan = try #require(boundedScan(root), "the scan did not end within 60 s")
        #expect(names(scan, under: root) == songs)
        #expect(scan.skipped.count == 2, "\(scan.skipped)")
        #expect(scan.skipped.allSatisfy { $0.contains("loops back") })
    }

    @Test func aLinkToWhatIsInTheLibraryAddsNothingAndTheRealPathIsKept() throws {
        let root = try library("links", songs: ["Album/x.flac", "Album/y.flac"])
        let outside = try library("links-outside", songs: ["z.flac"])
        // "A Favourites" sorts before "Album", so its links are met first.
        try FileManager.default.createDirectory(atPath: "\(root)/A Favourites", withIntermediateDirectories: true)
        try link("\(root)/A Favourites/x.flac", to: "../Album/x.flac")
        try link("\(root)/A Favourites/Album", to: "../Album")
        try link("\(root)/Elsewhere", to: outside)  // outside the music folder: followed, as MPD does
        try link("\(root)/Gone.flac", to: "nothing-here.flac")
        let scan = try #require(boundedScan(root))
        #expect(names(scan, under: root) == ["Album/x.flac", "Album/y.flac", "Elsewhere/z.flac"])
        #expect(scan.skipped == ["\(root)/Gone.flac: symbolic link to nothing (No such file or directory)"])
    }

    @Test func nestingBeyondTheLimitIsReported() throws {
        let deep = (1...LibraryWalk.maximumDepth + 1).map { "d\($0)" }.joined(separator: "/")
        let root = try library("deep", songs: ["top.flac", "\(deep)/deep.flac"])
        let scan = try #require(boundedScan(root))
        #expect(names(scan, under: root) == ["top.flac"])
        #expect(scan.skipped.count == 1 && scan.skipped[0].contains("nested more than 32 deep"), "\(scan.skipped)")
    }

    @Test func aNameWithANewlineIsSkippedAndNamed() throws {
        let root = try library("newline", songs: ["good.flac", "00 evil\nOK\nTitle: injected.flac"])
        let scan = LibraryScanner.scan(musicDirectory: root, playlistsDirectory: nil)
        #expect(names(scan, under: root) == ["good.flac"])
        #expect(scan.skipped.count == 1)
        #expect(scan.skipped.first?.contains(#"00 evil\nOK\nTitle: injected.flac""#) == true, "\(scan.skipped)")
        #expect(scan.skipped.allSatisfy { !$0.contains("\n") })
    }
}

/// Latin-1 and other non-UTF-8 file names: found, opened by their exact bytes, shown with U+FFFD.
@Suite struct NonUTF8NameTests {
    let fx = Fixtures.shared
    static let cafe: [UInt8] = Array("caf".utf8) + [0xE9]  // "café" in Latin-1

    /// Copies a fixture to `folder/<name bytes>`; Foundation cannot name a file with such bytes.
    private func copy(_ fixture: String, into folder: String, named name: [UInt8]) throws {
        try write(try Data(contentsOf: URL(fileURLWithPath: fx.path(fixture))), into: folder, named: name)
    }

    private func write(_ data: Data, into folder: String, named name: [UInt8]) throws {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        #expect(fd >= 0)
        data.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
    }

    private func folder(_ name: String) throws -> String {
        let root = try fx.scratchFolder(name)
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    @Test func pathsRoundTripByteForByte() {
        let samples: [[UInt8]] = [
            Self.cafe, [0xFF, 0xFE, 0x41], [0xC3], [0xC3, 0x28], [0xE2, 0x82], Array("plain é ✓".utf8),
            Array("\u{10FE80}\u{10FEFF}".utf8),  // the escape scalars themselves, written for real
            [0xF4, 0x8F, 0xBA], (0...255).map { UInt8($0) }.filter { $0 != 0 && $0 != 0x2F },
        ]
        for bytes in samples {
            #expect(FilePath.bytes(FilePath.decode(bytes)) == bytes, "\(bytes)")
        }
        #expect(FilePath.decode(Array("Ünïcödé".utf8)) == "Ünïcödé")
        #expect(FilePath.displayed(FilePath.decode(Self.cafe)) == "caf\u{FFFD}")
        #expect(FilePath.displayed(FilePath.decode(Array("\u{10FE80}".utf8))) == "\u{10FE80}")
    }

    /// Logs show such a name with U+FFFD, never the private-use scalars that carry its
    /// bytes, and stay one line per event.
    @Test func logLinesShowOddBytesAsReplacementCharacters() {
        let message = "cannot read \(FilePath.decode(Self.cafe)).flac:\nbroken"
        #expect(message.asLogText == "cannot read caf\u{FFFD}.flac: broken")
    }

    @Test func aLatin1NamedFileIsScannedOpenedAndDecoded() throws {
        let root = try folder("latin1")
        try copy("mono8k.wav", into: root, named: Self.cafe + Array(".wav".utf8))
        try write(Data("[00:01.00]hello\n".utf8), into: root, named: Self.cafe + Array(".lrc".utf8))
        try FileManager.default.copyItem(atPath: fx.path("mono8k.wav"), toPath: "\(root)/plain.wav")
        let scan = LibraryScanner.scan(musicDirectory: root, playlistsDirectory: nil)
        #expect(scan.skipped.isEmpty, "\(scan.skipped)")
        #expect(scan.tracks.map(\.displayPath) == ["\(root)/caf\u{FFFD}.wav", "\(root)/plain.wav"])
        let track = try #require(scan.tracks.first)
        let decoder = try AudioFile.open(track.path)
        #expect(try decoder.readAll().count == 2 * 8000 * 2)
        #expect(LyricsLocator.sidecarPath(for: track.path).map(FilePath.bytes) == Array(root.utf8) + [0x2F] + Self.cafe + Array(".lrc".utf8))
    }

    /// The FLAC and MP3 decoders read through FileReader's descriptor, so the name's
    /// exact bytes reach open(2) and the C libraries never see the escaped String.
    @Test func aLatin1NamedFLACAndMP3AreScannedOpenedAndDecoded() throws {
        let root = try folder("latin1-codecs")
        try copy("mono8k.flac", into: root, named: Self.cafe + Array(".flac".utf8))
        try copy("cbr.mp3", into: root, named: Self.cafe + Array(".mp3".utf8))
        let scan = LibraryScanner.scan(musicDirectory: root, playlistsDirectory: nil)
        #expect(scan.skipped.isEmpty, "\(scan.skipped)")
        #expect(scan.tracks.map(\.displayPath) == ["\(root)/caf\u{FFFD}.flac", "\(root)/caf\u{FFFD}.mp3"])
        for track in scan.tracks {
            #expect(try AudioFile.open(track.path).readAll().count > 0)
        }
    }
}

/// Playlists that are not UTF-8: a Latin-1 line names a Latin-1 file by its bytes, or a
/// file with a UTF-8 name by its Latin-1 reading.
@Suite struct NonUTF8PlaylistTests {
    let fx = Fixtures.shared

    @Test func aLatin1PlaylistFindsBothKindsOfName() throws {
        let root = try fx.scratchFolder("latin1-playlist")
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let latin1Name = Array("caf".utf8) + [0xE9] + Array(".wav".utf8)
        let path = Array(root.utf8) + [UInt8(ascii: "/")] + latin1Name + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        close(fd)
        _ = FileManager.default.createFile(atPath: "\(root)/crème.wav", contents: Data())
        let playlist = Array("#EXTM3U\r\n".utf8) + latin1Name + Array("\r\ncr".utf8) + [0xE8] + Array("me.wav\r\nplain.wav\r\n".utf8)
        try Data(playlist).write(to: URL(fileURLWithPath: "\(root)/mix.m3u"))
        let read = try M3UPlaylist.read("\(root)/mix.m3u")
        #expect(read.entries.count == 3)
        #expect(read.entries.first.map { FilePath.bytes($0.entry) } == Array(root.utf8) + [UInt8(ascii: "/")] + latin1Name)
        #expect(read.entries.dropFirst().first == .file("\(root)/crème.wav"))
        #expect(read.entries.last == .file("\(root)/plain.wav"))
    }
}
