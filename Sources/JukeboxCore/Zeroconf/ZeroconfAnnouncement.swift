/// One DNS-SD service the box announces on the network: MPD clients look for
/// `_mpd._tcp`, browsers and phones for `_http._tcp`.
public struct ZeroconfAnnouncement: Sendable, Equatable, CustomStringConvertible {
    /// The service type, such as "_mpd._tcp".
    public var type: String
    public var port: Int
    /// TXT record entries, each "key=value".
    public var txt: [String]

    public init(type: String, port: Int, txt: [String] = []) {
        self.type = type
        self.port = port
        self.txt = txt
    }

    /// "_mpd._tcp port 6600", as the log says it.
    public var description: String { "\(type) port \(port)" }
}

extension ZeroconfService {
    /// What a config announces: `_mpd._tcp` on `[control] tcp_port` when TCP is on and
    /// reachable from other machines (a loopback-only port would send phones to a door
    /// they cannot open), and `_http._tcp` on `webPort`, the web page's port when it
    /// listens beyond loopback. Nothing with `[zeroconf] enabled = false`.
    public static func announcements(_ config: JukeboxConfig, webPort: Int?) -> [ZeroconfAnnouncement] {
        guard config.zeroconf.enabled else { return [] }
        var announced: [ZeroconfAnnouncement] = []
        let control = config.control
        if (1...65535).contains(control.tcpPort), let address = ControlServer.TCPAddress(control.tcpAddress), !address.isLoopback {
            announced.append(ZeroconfAnnouncement(type: "_mpd._tcp", port: control.tcpPort))
        }
        if let webPort, (1...65535).contains(webPort) {
            // DNS-SD's key for an HTTP service's page (RFC 6763's _http._tcp).
            announced.append(ZeroconfAnnouncement(type: "_http._tcp", port: webPort, txt: ["path=/"]))
        }
        return announced
    }
}
