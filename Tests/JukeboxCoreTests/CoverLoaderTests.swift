import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The screen's cover thread: covers come back at the panel's size whatever the files
/// hold, the last few (and failures) are kept and answered at once.
@Suite struct CoverLoaderTests {
    let bomb = CoverBombTests()

    final class Inbox: @unchecked Sendable {
        let delivered = ConditionLocked([String: Cover?]())

        /// What the loader delivered for `path`, waiting for it up to a generous 60 s.
        func wait(for path: String) -> Cover?? {
            delivered.withLock { inbox in
                let deadline = MonotonicClock.now() + 60_000_000_000
                while inbox.wholeValue[path] == nil, MonotonicClock.now() < deadline { inbox.wait(nanoseconds: 100_000_000) }
                return inbox.wholeValue[path]
            }
        }
    }

    @Test func coversArriveAtThePanelSizeAndAreKept() throws {
        let inbox = Inbox()
        let loader = CoverLoader(logger: Logger(label: "covers")) { path, cover in
            inbox.delivered.withLock { $0.wholeValue[path] = .some(cover); $0.broadcast() }
        }
        try loader.start()
        defer { loader.stop() }
        let side = 180
        // Six albums, as in the issue: real large covers and headers claiming 65500x799.
        let covers = [CoverFixtures.jpeg(width: 4000, height: 4000, left: CoverBombTests.red, right: CoverBombTests.blue),
                      CoverBombTests.hugeClaim(progressive: false)]
        var tracks: [String] = []
        for i in 0..<6 {
            let track = try bomb.album(covers[i % 2])
            tracks.append(track)
            let source = try #require(TrackArt.coverSource(for: track, metadata: nil))
            #expect(loader.cover(for: track, source: source, side: side) == nil, "not decoded yet")
            let cover = try #require(inbox.wait(for: track) ?? nil, "no cover for album \(i)")
            #expect(cover.image.width == side && cover.image.height == side)
        }
        // The newest four are kept and answered at once; the oldest were let go.
        let last = try #require(TrackArt.coverSource(for: tracks[5], metadata: nil))
        #expect((loader.cover(for: tracks[5], source: last, side: side) ?? nil)?.image.width == side)
        // A picture that fails is tried once: the next track of its album gets nil at once.
        let refused = try bomb.album(CoverBombTests.hugeClaim(progressive: true))
        let source = try #require(TrackArt.coverSource(for: refused, metadata: nil))
        #expect(loader.cover(for: refused, source: source, side: side) == nil)
        #expect(inbox.wait(for: refused) == .some(nil))
        let again = loader.cover(for: refused, source: source, side: side)
        #expect(again != nil && again! == nil)
    }

    @Test func aPictureAskedForAgainWhileDecodingIsDecodedOnce() throws {
        let inbox = Inbox()
        let decoded = ConditionLocked(0)
        let loader = CoverLoader(logger: Logger(label: "covers")) { path, cover in
            decoded.withLock { $0.wholeValue += 1 }
            inbox.delivered.withLock { $0.wholeValue[path] = .some(cover); $0.broadcast() }
        }
        try loader.start()
        defer { loader.stop() }
        // A track, then its metadata, then the album's next track: all ask at once.
        let first = try bomb.album(CoverFixtures.jpeg(width: 4000, height: 4000, left: CoverBombTests.red, right: CoverBombTests.blue))
        let source = try #require(TrackArt.coverSource(for: first, metadata: nil))
        let second = AtomicFile.folder(of: first) + "/second.flac"
        var answer: Cover??
        for path in [first, first, second] { answer = loader.cover(for: path, source: source, side: 120) }
        // The latest track to ask gets the picture (delivered, or at once if the decode
        // was already done), decoded once.
        let cover = answer ?? inbox.wait(for: second)
        #expect((cover ?? nil)?.image.width == 120)
        #expect(decoded.current == 1)
    }
}
