import CJukeboxShim
import Foundation
import Testing
@testable import JukeboxCore

/// The state is written after every change and every few seconds while playing: a write
/// must leave nothing behind (issue 33, #29: RSS grew with play/stop cycles because each
/// write's TOML nodes were never freed), and any text must come back as it went.
@Suite struct StateWriteMemoryTests {
    let fx = Fixtures.shared

    func state(tracks: Int, path: String = "/music/b.flac") -> SavedState {
        let memory = PlaybackMemory(
            state: .paused, path: path, frame: 44_100 * 75, volume: 42, mode: .shuffle,
            options: PlayOptions(mode: .shuffle),
            queue: QueueMemory(current: 7, history: Array(0..<100), shuffleOrder: Array((0..<tracks).reversed()), shufflePosition: 3),
            queueFingerprint: QueueFingerprint(value: .max),
            places: [FolderPlaces.Place(folder: "/music/Books", path: "/music/Books/2.mp3", frame: 123),
                     FolderPlaces.Place(folder: "/music/Plays", path: path, frame: 0)])
        return SavedState(source: .library, identity: FileIdentity(size: 10, modified: 1_700_000_000_123_456_789), memory: memory)
    }

    /// Bytes malloc has handed out and not had back, in every arena.
    func heapInUse() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks + info.hblkhd)
    }

    @Test func writingTheStateAgainAndAgainKeepsNoMemory() throws {
        // A 10,000-track shuffle order: before the fix each write kept about 0.6 MB.
        let big = state(tracks: 10_000)
        for _ in 0..<3 { _ = try StateFile.encode(big) }
        // Other tests run alongside and allocate too: the least growth of three rounds is
        // this loop's own.
        var growth: [Int] = []
        for _ in 0..<3 {
            let before = heapInUse()
            for _ in 0..<30 { _ = try StateFile.encode(big) }
            growth.append(heapInUse() - before)
        }
        #expect(growth.min()! < 4 << 20, "heap growth per 30 writes: \(growth)")
    }

    @Test func anyTextComesBackThroughTheStateFile() throws {
        let folder = try fx.scratchFolder("state-text")
        let file = StateFile(path: "\(folder)/state")
        let odd = "/music/\"quoted\" \\ back\\slash/tab\there/new\nline/\u{1}\u{7f}/茉莉花 🎵/'single'.flac"
        var saved = state(tracks: 5, path: odd)
        saved.source = .playlist("a \"playlist\" = [x]")
        saved.clientQueue = true
        try file.write(saved)
        #expect(file.load().state == saved)
        saved.identity = nil
        saved.clientQueue = nil
        saved.memory.path = nil
        saved.memory.places = []
        saved.memory.queue = QueueMemory(current: nil, history: [], shuffleOrder: [], shufflePosition: 0)
        try file.write(saved)
        let loaded = file.load()
        #expect(loaded.state == saved)
        #expect(loaded.problems.isEmpty)
    }
}
