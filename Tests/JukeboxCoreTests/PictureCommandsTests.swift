import Foundation
import Testing
@testable import JukeboxCore

/// albumart and readpicture in binary chunks that honour binarylimit, for songs of the
/// library only.
@Suite struct PictureCommandsTests {
    func session(folder: String, tracks: [String]) -> ControlSession {
        let catalog = LibraryCatalog()
        var scan = LibraryScan()
        scan.tracks = tracks.map { LibraryTrack(path: folder + "/" + $0) }
        catalog.publish(scan)
        return ControlSession(player: Player(engine: FakeEngine()), scope: .init(musicDirectory: folder), catalog: catalog)
    }

    func bytes(_ outcome: ControlSession.Outcome) -> [UInt8] {
        switch outcome {
        case .replyBytes(let b): b
        case .reply(let text): Array(text.utf8)
        default: []
        }
    }

    /// Reassembles a picture the way a client does: chunk after chunk from the offset.
    func fetch(_ s: ControlSession, _ command: String, _ uri: String) -> (data: [UInt8], chunks: Int, head: String) {
        var data: [UInt8] = [], chunks = 0, firstHead = ""
        while true {
            let reply = bytes(s.handle(line: "\(command) \"\(uri)\" \(data.count)"))
            guard let marker = reply.firstRange(of: Array("binary: ".utf8)) else { return (data, chunks, String(decoding: reply, as: UTF8.self)) }
            let lineEnd = reply[marker.upperBound...].firstIndex(of: 0x0A)!
            let count = Int(String(decoding: reply[marker.upperBound..<lineEnd], as: UTF8.self))!
            if chunks == 0 { firstHead = String(decoding: reply[..<marker.lowerBound], as: UTF8.self) }
            data += reply[(lineEnd + 1)..<(lineEnd + 1 + count)]
            #expect(Array(reply[(lineEnd + 1 + count)...]) == Array("\nOK\n".utf8))
            chunks += 1
            let size = Int(firstHead.split(separator: "\n").first { $0.hasPrefix("size: ") }!.dropFirst(6))!
            if data.count >= size || count == 0 { return (data, chunks, firstHead) }
        }
    }

    @Test func albumartSendsTheFolderPictureInChunks() throws {
        let folder = NSTemporaryDirectory() + "jukebox-art-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder + "/Album", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let picture = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(picture).write(to: URL(fileURLWithPath: folder + "/Album/Cover.JPG"))
        _ = FileManager.default.createFile(atPath: folder + "/Album/a.flac", contents: Data())
        let s = session(folder: folder, tracks: ["Album/a.flac"])
        #expect(s.handle(line: "binarylimit 4096") == .reply("OK\n"))
        let got = fetch(s, "albumart", "Album/a.flac")
        #expect(got.data == picture && got.chunks == 5 && got.head == "size: 20000\n")
        #expect(s.handle(line: "binarylimit 10") == .reply("ACK [2@0] {binarylimit} Value too small\n"))
        #expect(s.handle(line: "albumart Album/a.flac 20001") == .reply("ACK [2@0] {albumart} Offset too large\n"))
        // Outside the library: nothing is read, and the answer is MPD's for no file.
        #expect(s.handle(line: "albumart ../../etc/shadow 0") == .reply("ACK [50@0] {albumart} No file exists\n"))
        #expect(s.handle(line: "albumart /etc/passwd 0") == .reply("ACK [50@0] {albumart} No file exists\n"))
    }

    @Test func readpictureSendsTheEmbeddedPicture() throws {
        let s = session(folder: Fixtures.shared.dir, tracks: ["music16.flac", "music24.flac"])
        let got = fetch(s, "readpicture", "music16.flac")
        #expect(got.head.contains("type: image/"), "\(got.head)")
        #expect(got.data.starts(with: [0xFF, 0xD8]) || got.data.starts(with: [0x89, 0x50]))
        #expect(got.data == (try AudioFile.metadata(Fixtures.shared.path("music16.flac"))).cover?.data)
        // No embedded picture: an empty answer, as MPD gives.
        #expect(s.handle(line: "readpicture music24.flac 0") == .replyBytes(Array("OK\n".utf8)))
    }
}
