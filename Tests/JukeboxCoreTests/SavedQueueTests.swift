import Foundation
import Testing
@testable import JukeboxCore

/// Issue 33 #15: the saved queue (`state.queue.m3u`) is read back as a client's `add`
/// would take it: files in the music folder named plainly, URLs a client may add, and no
/// more entries than a queue holds; what is left out is logged with its file and line.
@Suite(.serialized) struct SavedQueueTests {
    let fx = Fixtures.shared

    @Test func entriesAClientCouldNotAddAreLeftOutWithTheirLine() throws {
        let folder = try fx.scratchFolder("saved-queue-rules")
        let file = QueueFile(beside: StateFile(path: "\(folder)/state"))
        let music = "/srv/music"
        let lines = ["\(music)/a.flac", "/etc/passwd", "../../etc/hostname", "/proc/self/environ", "\(music)/../../etc/shadow",
                     "\(music)/./b.flac", "\(music)//c.flac", "/srv/musicians/x.flac", "http://radio.example/live.mp3",
                     "http://bad url/x.mp3", "\(music)/Ü/d.flac"]
        try ("#EXTM3U\n" + lines.joined(separator: "\n") + "\n").write(toFile: file.path, atomically: true, encoding: .utf8)
        let checked = try #require(try file.load(musicDirectory: music))
        #expect(checked.tracks == [.file("\(music)/a.flac"), .url("http://radio.example/live.mp3"), .file("\(music)/Ü/d.flac")])
        #expect(checked.droppedCount == 8)
        #expect(checked.dropped.first == "\(file.path):3: /etc/passwd left out: not a file in /srv/music")
        #expect(checked.dropped.contains("\(file.path):11: http://bad url/x.mp3 left out: not a URL a client may add"))
        #expect(try file.load(musicDirectory: music + "/")?.tracks == checked.tracks)
    }

    /// Priorities (MPD's `prio`) are kept as `#PRIO:` lines before their entries, and come
    /// back with the entries kept, held to MPD's 0...255.
    @Test func prioritiesComeBackWithTheirEntries() throws {
        let folder = try fx.scratchFolder("saved-queue-priorities")
        let file = QueueFile(beside: StateFile(path: "\(folder)/state"))
        let music = "/srv/music"
        try file.write(["\(music)/a.flac", "\(music)/b.flac", "\(music)/c.flac"], priorities: [0, 7, 255])
        #expect(try String(contentsOfFile: file.path, encoding: .utf8)
            == "#EXTM3U\n\(music)/a.flac\n#PRIO:7\n\(music)/b.flac\n#PRIO:255\n\(music)/c.flac\n")
        #expect(try file.load(musicDirectory: music)?.priorities == [0, 7, 255])
        try file.write(["\(music)/a.flac"])
        #expect(try file.load(musicDirectory: music)?.priorities == [])

        // A priority goes with its own entry, whatever is left out around it.
        try "#EXTM3U\n#PRIO:9\n/etc/passwd\n#PRIO:999\n\(music)/a.flac\n\(music)/b.flac\n#PRIO:-3\n\(music)/c.flac\n"
            .write(toFile: file.path, atomically: true, encoding: .utf8)
        let checked = try #require(try file.load(musicDirectory: music))
        #expect(checked.tracks == ["a", "b", "c"].map { .file("\(music)/\($0).flac") })
        #expect(checked.priorities == [255, 0, 0])
    }

    @Test func noMoreEntriesComeBackThanAQueueHolds() throws {
        let folder = try fx.scratchFolder("saved-queue-length")
        let file = QueueFile(beside: StateFile(path: "\(folder)/state"))
        let paths = (0..<100_000).map { "/srv/music/\($0).flac" }
        try file.write(paths)
        let checked = try #require(try file.load(musicDirectory: "/srv/music"))
        #expect(checked.tracks == paths.prefix(QueueDraft.maximumLength).map(TrackLocation.file))
        #expect(checked.droppedCount == 100_000 - QueueDraft.maximumLength)
        // One line says where the cut is; the entries after it are only counted.
        #expect(checked.dropped == ["\(file.path):\(QueueDraft.maximumLength + 2): this entry and every one after it left out: a queue holds at most \(QueueDraft.maximumLength)"])
    }

    /// The whole box: a queue file with entries planted outside the music comes back
    /// without them, and the log names each with its line.
    @Test func aPlantedQueueFileComesBackCleaned() throws {
        let music = try fx.scratchFolder("saved-queue-music")
        for (name, pitch) in [("a.flac", 440), ("b.flac", 550)] where !FileManager.default.fileExists(atPath: "\(music)/\(name)") {
            _ = try Tools.run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", "\(music)/\(name)", "synth", "60", "sine", "\(pitch)"])
        }
        let folder = try fx.scratchFolder("saved-queue-state")
        let stateFile = "\(folder)/state"
        for leftover in [stateFile, stateFile + ".prev", stateFile + ".queue.m3u"] { try? FileManager.default.removeItem(atPath: leftover) }
        let config = fx.path("saved-queue.toml")
        try "[playback]\nautoplay = false\n[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)

        let first = try RunningDaemon(name: "saved-queue", config: config, musicDirectory: music, device: NullOutput.deviceName, stateFile: stateFile)
        #expect(first.wait(seconds: 30) { first.ctl(["status"]) != nil }, "\(first.log)")
        for command in [["clear"], ["add", "b.flac"], ["add", "a.flac"], ["prio", "7", "1"]] { #expect(first.ctl(command) != nil, "\(command)") }
        first.send(SIGTERM)
        #expect(first.waitForExit(seconds: 30))
        let queueFile = stateFile + ".queue.m3u"
        var text = try String(contentsOfFile: queueFile, encoding: .utf8)
        #expect(text == "#EXTM3U\n\(music)/b.flac\n#PRIO:7\n\(music)/a.flac\n")
        text += "/etc/passwd\n../../etc/hostname\n/proc/self/environ\n\(music)/../../../etc/hostname\nhttp://radio.example/x.mp3\n"
        try text.write(toFile: queueFile, atomically: true, encoding: .utf8)

        let second = try RunningDaemon(name: "saved-queue", config: config, musicDirectory: music, device: NullOutput.deviceName, stateFile: stateFile)
        #expect(second.wait(seconds: 30) { second.ctl(["status"]) != nil }, "\(second.log)")
        let files = (second.ctl(["playlistinfo"]) ?? "").split(separator: "\n").filter { $0.hasPrefix("file: ") }
        #expect(files == ["file: b.flac", "file: a.flac", "file: http://radio.example/x.mp3"], "\(second.log)")
        // The priority a client gave comes back with its entry, as MPD's state file keeps it.
        #expect((second.ctl(["playlistinfo", "1"]) ?? "").contains("Prio: 7\n"), "\(second.log)")
        for (line, entry) in [(5, "/etc/passwd"), (6, "../../etc/hostname"), (7, "/proc/self/environ")] {
            #expect(second.log.contains("\(queueFile):\(line): \(entry) left out"), "\(second.log)")
        }
        second.send(SIGTERM)
        #expect(second.waitForExit(seconds: 30))
    }
}
