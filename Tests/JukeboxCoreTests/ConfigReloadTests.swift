import Foundation
import Testing
@testable import JukeboxCore

/// Config edits while the box plays: 100 in a row (JUKEBOX_RELOAD_EDITS), valid and
/// broken mixed, saved in place and by rename as editors do. A broken edit changes
/// nothing and never interrupts the sound; a valid one takes effect; no descriptor leaks.
@Suite struct ConfigReloadTests {
    let fx = Fixtures.shared
    private static let modes: [PlayMode] = [.once, .repeatAll, .repeatOne, .shuffle]
    private static let brokenEdits = [
        "[playback]\nvolume_stepp = 5\n",  // a typo
        "[playback]\nmode = \"sideways\"\n",  // a value that is not one
        "[playback\nmode = \"once\"\n",  // cut off mid-save
    ]

    /// `webPort`: the page's own, so it listens from the start. On the shared default
    /// (8080) it would wait its turn behind the other tests' boxes and could open its
    /// listener mid-test, which the descriptor count would take for a leak.
    private static func text(mode: PlayMode, step: Int, connections: Int, key: Int, webPort: Int) -> String {
        """
        [playback]
        autoplay = true
        mode = "\(mode.rawValue)"
        volume_step = \(step)
        [control]
        keyboard = false
        max_connections = \(connections)
        [[input.key]]
        code = \(key)
        press = "next"
        [web]
        port = \(webPort)

        """
    }

    private static func save(_ text: String, to path: String, byRename: Bool) throws {
        if byRename {
            try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
            guard rename(path + ".new", path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } else {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }
    }

    private static func status(_ socket: String) -> [String: String] {
        guard let lines = try? ControlClient(socketPath: socket).send(["status"]) else { return [:] }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    private static func mode(_ status: [String: String]) -> PlayMode? {
        guard status["repeat"] != nil, status["random"] != nil, status["single"] != nil else { return nil }
        return MPDProtocol.options(status).mode
    }

    /// The process's open descriptors, less the tracks it reads (the decoder opens the
    /// next track ahead, and whether there is one depends on the mode).
    private static func descriptors(_ pid: Int32, besides music: String) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.map { fd in
            "\(fd)→\((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "?")"
        }.filter { !$0.contains("→" + music + "/") }.sorted()
    }

    @Test func editsWhilePlayingApplyOrAreRefusedWithoutAGap() throws {
        let edits = Int(ProcessInfo.processInfo.environment["JUKEBOX_RELOAD_EDITS"] ?? "") ?? 100
        let music = try fx.sineFolder("reload-music", seconds: 1800).folder
        let folder = try fx.scratchFolder("reload-config")
        let config = "\(folder)/jukebox.toml"
        var mode = PlayMode.once
        let webPort = try LoopbackListener.freePort()
        try Self.save(Self.text(mode: mode, step: 5, connections: 100, key: 704, webPort: webPort), to: config, byRename: false)
        let daemon = try RunningDaemon(name: "reload", config: config, musicDirectory: music, device: NullOutput.deviceName)
        #expect(daemon.wait(seconds: 30) { Self.status(daemon.socket)["state"] == "play" }, "never played: \(daemon.log)")
        // Counted once the last status connection is surely closed on the daemon's side.
        usleep(500_000)
        let descriptorsBefore = Self.descriptors(daemon.pid, besides: music)

        var generator = SplitMix(seed: UInt64(getpid()))
        var lastElapsed = 0.0
        var refused = 0
        var latencies: [Double] = []
        for edit in 0..<edits {
            let broken = generator.next() % 3 == 0
            let byRename = generator.next() % 2 == 0
            if broken {
                try Self.save(Self.brokenEdits[edit % Self.brokenEdits.count], to: config, byRename: byRename)
                refused += 1
                let logged = daemon.wait(seconds: 10) {
                    daemon.log.components(separatedBy: "keeping the running config").count - 1 >= refused
                }
                #expect(logged, "edit \(edit): the broken edit was not reported: \(daemon.log)")
            } else {
                let others = Self.modes.filter { $0 != mode }
                mode = others[Int(generator.next() % UInt64(others.count))]
                let saved = Date()
                try Self.save(Self.text(mode: mode, step: 1 + edit % 9, connections: 50 + edit % 3, key: 704 + edit % 4,
                                        webPort: webPort),
                              to: config, byRename: byRename)
                let applied = daemon.wait(seconds: 10) { Self.mode(Self.status(daemon.socket)) == mode }
                #expect(applied, "edit \(edit): mode \(mode) never applied: \(daemon.log)")
                latencies.append(Date().timeIntervalSince(saved))
            }
            // The control socket may be restarting for this very edit: asked again until it
            // answers (what is checked is the music, not the socket's restart).
            var status: [String: String] = [:]
            _ = daemon.wait(seconds: 5, until: {
                status = Self.status(daemon.socket)
                return !status.isEmpty
            })
            #expect(status["state"] == "play", "edit \(edit): \(status): \(daemon.log)")
            let elapsed = Double(status["elapsed"] ?? "") ?? -1
            #expect(elapsed >= lastElapsed, "edit \(edit): went back from \(lastElapsed) to \(elapsed)")
            lastElapsed = elapsed
        }
        // The control socket and the input thread were restarted many times over.
        usleep(500_000)
        #expect(daemon.wait(seconds: 5) { Self.descriptors(daemon.pid, besides: music).count == descriptorsBefore.count },
                "descriptors: \(descriptorsBefore) before, \(Self.descriptors(daemon.pid, besides: music)) after")
        #expect(!daemon.log.contains("stopping"), "\(daemon.log)")
        let sorted = latencies.sorted()
        if let worst = sorted.last {
            print("config reload: \(edits) edits, \(refused) broken; valid applied in median \(Int(sorted[sorted.count / 2] * 1000)) ms, worst \(Int(worst * 1000)) ms (polling every 100 ms)")
        }
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }

    /// A new device in the config: the sound moves to it and carries on from the sample
    /// heard last. ALSA's file plugin is not paced, so the rest of the track arrives at
    /// once, and its length tells where playback carried on from.
    @Test func aNewDeviceCarriesOnFromTheSameSample() throws {
        let music = try fx.sineFolder("reroute-music", seconds: 60).folder
        let folder = try fx.scratchFolder("reroute-config")
        let config = "\(folder)/jukebox.toml"
        let recording = "\(folder)/out.raw"
        try? FileManager.default.removeItem(atPath: recording)
        let text = "[playback]\nautoplay = true\nmode = \"once\"\n[control]\nkeyboard = false\n[audio]\ndevice = \"DEVICE\"\n"
        try Self.save(text.replacingOccurrences(of: "DEVICE", with: NullOutput.deviceName), to: config, byRename: false)
        let daemon = try RunningDaemon(name: "reroute", config: config, musicDirectory: music, device: nil)
        var before = 0.0
        #expect(daemon.wait(seconds: 30) {
            before = Double(Self.status(daemon.socket)["elapsed"] ?? "") ?? 0
            return before > 1
        }, "never played: \(daemon.log)")
        try Self.save(text.replacingOccurrences(of: "DEVICE", with: "file:FILE=\(recording),FORMAT=raw"), to: config, byRename: true)
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("end of the queue") }, "\(daemon.log)")
        let bytes = (try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int) ?? 0
        let carriedOnFrom = 60 - Double(bytes / 2) / 8000
        // Between the elapsed time read before the save and a little after it (the save
        // settles for 150 ms; the null sink plays on meanwhile).
        #expect(carriedOnFrom >= before - 0.1 && carriedOnFrom <= before + 2, "carried on from \(carriedOnFrom) s; \(before) s had played: \(daemon.log)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }
}
