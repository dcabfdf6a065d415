import Foundation
import Testing
@testable import JukeboxCore

/// Reading tags costs memory bounded by a constant plus what is kept, whatever the tag's
/// size: frames are read one at a time, and what is not kept is skipped unread.
@Suite struct TagMemoryTests {
    let fx = Fixtures.shared

    /// Counts what a reader asks of the file.
    final class CountingTagBytes: TagBytes {
        let inner: FileReader
        var bytesRead = 0
        var largestRead = 0
        init(_ inner: FileReader) { self.inner = inner }
        var size: Int64 { inner.size }
        func read(at offset: Int64, count: Int) throws -> [UInt8] {
            let bytes = try inner.read(at: offset, count: count)
            bytesRead += bytes.count
            largestRead = max(largestRead, bytes.count)
            return bytes
        }
    }

    static let giantPictureBytes = 250 * 1024 * 1024

    /// An MP3 whose ID3v2.3 tag holds a title, a 250 MiB picture (a hole on disk, so it
    /// costs no space) and a small cover after it. Each test names its own copy: tests run
    /// in parallel, and one rewriting the file would cut it short under another's reader.
    func sparseGiantTagMP3(named name: String) throws -> String {
        let path = fx.path(name)
        var titleTag = ID3Builder(version: 3)
        titleTag.text("TIT2", "Sparse Giant", .latin1)
        let titleFrame = Array(titleTag.build().dropFirst(10))
        var coverTag = ID3Builder(version: 3)
        coverTag.picture(mime: "image/png", bytes: [9, 8, 7])
        let coverFrame = Array(coverTag.build().dropFirst(10))
        let giantHead: [UInt8] = [0] + Array("image/jpeg".utf8) + [0, 3, 0]
        let giantSize = giantHead.count + Self.giantPictureBytes
        let giantFrameHead = Array("APIC".utf8) + [UInt8(giantSize >> 24), UInt8((giantSize >> 16) & 0xFF),
                                                    UInt8((giantSize >> 8) & 0xFF), UInt8(giantSize & 0xFF), 0, 0] + giantHead
        let bodySize = titleFrame.count + 10 + giantSize + coverFrame.count
        let header = Array("ID3".utf8) + [3, 0, 0] + ID3Builder.synchsafe(bodySize)
        guard FileManager.default.createFile(atPath: path, contents: Data(header + titleFrame + giantFrameHead)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        // The picture's bytes are a hole: seeking past them writes nothing.
        try file.seek(toOffset: UInt64(header.count + titleFrame.count + 10 + giantSize))
        try file.write(contentsOf: Data(coverFrame + (try fx.bytes("cbr.mp3"))))
        return path
    }

    @Test func aGiantFrameIsSkippedUnread() throws {
        let path = try sparseGiantTagMP3(named: "giant-tag-read.mp3")
        let source = CountingTagBytes(try FileReader(path: path))
        let m = try MP3Tags.metadata(in: source, mpegFrameSeconds: 0.026)
        #expect(m.title == "Sparse Giant")
        #expect(m.pictures.map(\.data) == [[9, 8, 7]])
        #expect(source.bytesRead < 4096, "read \(source.bytesRead) bytes")
        #expect(source.largestRead < 4096)
    }

    @Test func picturesKeptAreCapped() {
        var m = TrackMetadata()
        for i in 0..<10 { m.pictures.append(EmbeddedPicture(type: i, mimeType: "image/png", description: "", data: [1])) }
        m.pictures.append(EmbeddedPicture(type: 3, mimeType: "image/png", description: "",
                                          data: [UInt8](repeating: 0, count: TagLimits.maximumPictureBytes + 1)))
        #expect(m.pictures.map(\.type) == Array(0..<TagLimits.maximumPictures))
    }

    @Test func probeOfAGiantTagStaysSmall() throws {
        let path = try sparseGiantTagMP3(named: "giant-tag-probe.mp3")
        let out = try Tools.run("timeout", ["60", Tools.jukebox, "probe", "--json", path], check: false)
        #expect(out.status == 0, "exit \(out.status): \(out.stderr)")
        let report = try #require((try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]])?.first)
        #expect(report["title"] as? String == "Sparse Giant")
        #expect(report["hasCover"] as? Bool == true)
        let probe = try Tools.peakMemory(Tools.jukebox, ["probe", "--json", path])
        #expect(probe.status == 0)
        #expect(probe.peakBytes < 200 * 1024 * 1024, "peak RSS \(probe.peakBytes >> 10) KiB")
    }
}
