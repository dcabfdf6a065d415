import Testing
@testable import JukeboxCore

/// The [control] limits: defaults as MPD's, values read, out-of-range refused where written.
@Suite struct ControlConfigTests {
    func parse(_ text: String) throws -> JukeboxConfig { try ConfigLoader.parse(text, path: "j.toml") }

    @Test func defaultsAreMPDs() throws {
        let limits = try parse("").control.limits
        #expect(limits == ControlServer.Limits(connectionTimeoutSeconds: 60, maximumConnections: 100, maximumCommandListBytes: 2048 * 1024))
    }

    @Test func valuesAreRead() throws {
        let limits = try parse("[control]\nconnection_timeout = 30\nmax_connections = 20\nmax_command_list_size = 512\n").control.limits
        #expect(limits == ControlServer.Limits(connectionTimeoutSeconds: 30, maximumConnections: 20, maximumCommandListBytes: 512 * 1024))
    }

    @Test func outOfRangeIsRefusedWithItsPlace() {
        for (key, value, range) in [("connection_timeout", "0", "1 to 86400"), ("max_connections", "5000", "1 to 1000"),
                                    ("max_command_list_size", "-1", "1 to 65536")] {
            #expect(throws: ConfigError(path: "j.toml", line: 3, column: 1, reason: "\(key) is \(value); it must be from \(range)")) {
                try parse("[control]\nkeyboard = false\n\(key) = \(value)\n")
            }
        }
    }
}
