import Foundation
import Testing
@testable import JukeboxCore

/// MPD's `update` and `rescan`: job ids, `updating_db` while one runs, and the `update`
/// and `database` idle events, on the real daemon's library service.
@Suite struct LibraryUpdateTests {
    let fx = Fixtures.shared

    @Test func jobsGetIdsAndJoinAWaitingOne() {
        let catalog = LibraryCatalog()
        #expect(catalog.requestUpdate(everything: false) == nil)
        let woken = ConditionLocked(0)
        catalog.carryOutUpdates { woken.withLock { $0.wholeValue += 1 } }
        #expect(catalog.requestUpdate(everything: false) == 1)
        // Waiting still: the next request joins it, and may widen it.
        #expect(catalog.requestUpdate(everything: true) == 1)
        #expect(woken.current == 1)
        #expect(catalog.updatingJob == 1)
        let job = catalog.takeJob()
        #expect(job == LibraryCatalog.Job(id: 1, everything: true))
        // Running: a request now is another job, after it.
        #expect(catalog.requestUpdate(everything: false) == 2)
        #expect(catalog.updatingJob == 1)
        catalog.jobEnded(job!)
        #expect(catalog.updatingJob == 2)
        #expect(catalog.takeJob()?.id == 2)
        catalog.jobEnded(LibraryCatalog.Job(id: 2, everything: false))
        #expect(catalog.updatingJob == nil)
        #expect(catalog.takeJob() == nil)
    }

    @Test func updateFindsNewMusicAndWakesIdleClients() throws {
        let music = try fx.scratchFolder("update-music")
        for leftover in (try? FileManager.default.contentsOfDirectory(atPath: music)) ?? [] {
            try FileManager.default.removeItem(atPath: "\(music)/\(leftover)")
        }
        try Tools.run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", "\(music)/a.flac", "synth", "30", "sine", "440"])
        let config = fx.path("update.toml")
        try "[playback]\nautoplay = false\n[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: "update", config: config, musicDirectory: music, device: NullOutput.deviceName)
        #expect(daemon.wait(seconds: 30) { daemon.ctl(["stats"])?.contains("songs: 1\n") ?? false }, "\(daemon.log)")

        // A client waits for the database to change, as ncmpcpp and phone apps do. It says
        // "ready" once connected: from then on a change is kept for its idle.
        let idle = Process()
        idle.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        idle.arguments = ["-c", """
            import sys
            from mpd import MPDClient
            c = MPDClient(); c.connect(sys.argv[1]); print("ready", flush=True)
            print(c.idle("database"), flush=True)
            """, daemon.socket]
        let out = Pipe()
        idle.standardOutput = out
        try idle.run()
        defer { if idle.isRunning { idle.terminate() } }
        let ready = out.fileHandleForReading.readData(ofLength: 6)
        #expect(String(decoding: ready, as: UTF8.self) == "ready\n")

        try Tools.run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", "\(music)/b.flac", "synth", "30", "sine", "550"])
        let reply = daemon.ctl(["update"]) ?? ""
        #expect(reply.hasPrefix("updating_db: "), "\(reply)")
        #expect(daemon.wait(seconds: 30) { daemon.ctl(["stats"])?.contains("songs: 2\n") ?? false }, "\(daemon.log)")
        #expect(daemon.wait(seconds: 10) { !(daemon.ctl(["status"])?.contains("updating_db") ?? true) })
        #expect(daemon.wait(seconds: 10) { !idle.isRunning })
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "['database']\n")
        // A new job id each time; a path outside the library is refused.
        #expect(daemon.ctl(["rescan"])?.hasPrefix("updating_db: ") ?? false)
        #expect(daemon.ctl(["update", "../etc"]) == nil)
        #expect(daemon.log.contains("library: update"), "\(daemon.log)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 10))
    }
}
