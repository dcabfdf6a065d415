import Testing
@testable import JukeboxCore

/// `[zeroconf]`: what a config announces, the name's rules, and what a reload restarts.
@Suite struct ZeroconfTests {
    func parse(_ text: String) throws -> JukeboxConfig { try ConfigLoader.parse(text, path: "j.toml") }

    @Test func onAndNamedJukeboxByDefault() throws {
        let zeroconf = try parse("").zeroconf
        #expect(zeroconf.enabled && zeroconf.name == "Jukebox")
        let set = try parse("[zeroconf]\nenabled = false\nname = \"Kinderzimmer\"\n").zeroconf
        #expect(!set.enabled && set.name == "Kinderzimmer")
    }

    @Test func unknownKeysAndBadNamesAreRefusedWhereWritten() {
        #expect(throws: ConfigError.self) { try parse("[zeroconf]\nzeroconf_name = \"Jukebox\"\n") }
        for (name, reason) in [("\"\"", "name is empty"), ("\"\(String(repeating: "x", count: 64))\"", "name is 64 bytes long"),
                               ("\"a\\tb\"", "name holds a control character")] {
            do {
                _ = try parse("[zeroconf]\nenabled = true\nname = \(name)\n")
                Issue.record("name \(name) was taken")
            } catch let error as ConfigError {
                #expect(error.line == 3 && error.reason.hasPrefix(reason), "\(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
        // 63 bytes of UTF-8 is the longest a label holds, however many characters.
        #expect(ZeroconfName.problem(String(repeating: "ü", count: 31)) == nil)
        #expect(ZeroconfName.problem(String(repeating: "ü", count: 32)) != nil)
    }

    @Test func mpdIsAnnouncedOnlyWhereOtherMachinesReachIt() throws {
        #expect(ZeroconfService.announcements(try parse(""), webPort: nil).isEmpty)
        // TCP on, but on loopback: a phone could not connect.
        #expect(ZeroconfService.announcements(try parse("[control]\ntcp_port = 6600\n"), webPort: nil).isEmpty)
        #expect(ZeroconfService.announcements(try parse("[control]\ntcp_port = 6600\ntcp_address = \"::1\"\n"), webPort: nil).isEmpty)
        let open = try parse("[control]\ntcp_port = 6601\ntcp_address = \"0.0.0.0\"\n")
        #expect(ZeroconfService.announcements(open, webPort: nil) == [ZeroconfAnnouncement(type: "_mpd._tcp", port: 6601, txt: [])])
        #expect(ZeroconfService.announcements(open, webPort: 8080) == [
            ZeroconfAnnouncement(type: "_mpd._tcp", port: 6601, txt: []), ZeroconfAnnouncement(type: "_http._tcp", port: 8080, txt: ["path=/"]),
        ])
        #expect(ZeroconfService.announcements(try parse(""), webPort: 80).map(\.description) == ["_http._tcp port 80"])
        var off = open
        off.zeroconf.enabled = false
        #expect(ZeroconfService.announcements(off, webPort: 8080).isEmpty)
    }

    @Test func collisionsFollowAvahisRule() {
        #expect(ZeroconfName.alternative(to: "Jukebox") == "Jukebox #2")
        #expect(ZeroconfName.alternative(to: "Jukebox #2") == "Jukebox #3")
        let longest = String(repeating: "x", count: 63)
        #expect(ZeroconfName.alternative(to: longest).utf8.count <= 63)
    }

    @Test func aReloadRestartsItWhenWhatItAnnouncesChanges() throws {
        let base = try parse("[control]\ntcp_port = 6600\ntcp_address = \"0.0.0.0\"\n")
        var renamed = base
        renamed.zeroconf.name = "Wohnzimmer"
        #expect(ConfigChange(from: base, to: renamed).parts == [.zeroconf])
        var closed = base
        closed.control.tcpAddress = "127.0.0.1"
        #expect(ConfigChange(from: base, to: closed).parts == [.control, .zeroconf])
        var limited = base
        limited.control.limits.maximumConnections = 5
        #expect(ConfigChange(from: base, to: limited).parts == [.control])
    }

    @Test func nothingToAnnounceStartsNothing() throws {
        let service = ZeroconfService(name: "Jukebox", announcements: [], logger: .init(label: "test"))
        try service.start { _ in }
        service.stop()
    }
}
