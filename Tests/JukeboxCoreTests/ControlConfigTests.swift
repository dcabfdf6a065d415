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

    @Test func tcpStaysOnThisMachineUnlessOpened() throws {
        let defaults = try parse("").control
        #expect(defaults.tcpPort == 0 && defaults.tcpAddress == "127.0.0.1" && defaults.password.isEmpty)
        let open = try parse("[control]\ntcp_port = 6600\ntcp_address = \"0.0.0.0\"\npassword = \"open sesame\"\n").control
        #expect(open.tcpAddress == "0.0.0.0" && open.password == "open sesame")
        #expect(try parse("[control]\ntcp_address = \"::1\"\n").control.tcpAddress == "::1")
        #expect(ControlServer.TCPAddress("127.0.0.1")?.isLoopback == true && ControlServer.TCPAddress("::1")?.isLoopback == true)
        #expect(ControlServer.TCPAddress("0.0.0.0")?.isLoopback == false && ControlServer.TCPAddress("192.168.1.5")?.isLoopback == false)
        #expect(throws: ConfigError.self) { try parse("[control]\ntcp_address = \"my-pi.local\"\n") }
        do {
            _ = try parse("[control]\nkeyboard = false\ntcp_address = \"all\"\n")
        } catch let error as ConfigError {
            #expect(error.line == 3 && error.reason.hasPrefix("tcp_address must be an IP address"))
        }
    }
}
