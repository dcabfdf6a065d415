import TOMLKit

/// A configuration problem, located: `PATH:LINE:COLUMN: reason`.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var line: Int
    public var column: Int
    public var reason: String
    /// `path:line:column: reason`, or `path: reason` for the file as a whole (line 0).
    public var description: String { line > 0 ? "\(path):\(line):\(column): \(reason)" : "\(path): \(reason)" }
}

/// Reads `jukebox.toml`. Syntax comes from TOMLKit; this checks meaning: unknown
/// sections and keys (typos), wrong types and out-of-range values are all errors with the
/// line and column of the key, so a mistake made over SSH is named, not guessed at.
public enum ConfigLoader {
    /// `musicDirectory` (`--music-dir`) replaces `music_dir`, and is where playlists are
    /// kept unless the file sets `playlists_dir`.
    public static func load(path: String, environment: [String: String] = [:], musicDirectory: String? = nil) throws -> JukeboxConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.contents(of: path, limit: 1 << 20)
        } catch let error as MediaError {
            throw ConfigError(path: path, line: 0, column: 0, reason: error.reason)
        }
        return try parse(ConfigText.decode(bytes, path: path), path: path, environment: environment, musicDirectory: musicDirectory)
    }

    /// `environment` supplies systemd's folders for the defaults (see `JukeboxConfig.init(environment:)`).
    public static func parse(_ text: String, path: String, environment: [String: String] = [:],
                             musicDirectory: String? = nil) throws -> JukeboxConfig {
        try ConfigText.refuseNUL(text, path: path)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(path: path, line: error.source.begin.line, column: error.source.begin.column,
                              reason: error.description)
        }
        var defaults = JukeboxConfig(environment: environment)
        if let musicDirectory { defaults.library.playlistsDirectory = musicDirectory }
        var reader = Reader(table: table, locator: KeyLocator(text: text), path: path, defaults: defaults)
        var config = try reader.read()
        if let musicDirectory { config.library.musicDirectory = musicDirectory }
        return config
    }

    /// The cards file: `cards.toml` beside the config unless `[cards] file` names one (a
    /// relative name is taken from the config's folder); "none" keeps no cards.
    public static func cardsFile(_ configured: String, besideConfig path: String) -> String {
        if configured == "none" || configured.isEmpty && path.isEmpty { return "" }
        if configured.hasPrefix("/") { return configured }
        return AtomicFile.folder(of: path) + "/" + (configured.isEmpty ? "cards.toml" : configured)
    }

    /// "320x240" as (320, 240); nil unless both are from 64 to 4096.
    public static func size(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (64...4096).contains(w), (64...4096).contains(h) else { return nil }
        return (w, h)
    }

    struct Reader {
        let table: TOMLTable
        let locator: KeyLocator
        let path: String
        let defaults: JukeboxConfig
        /// Which entry of an array of tables (`[[input.button]]`) is being read.
        var index = 0

        mutating func read() throws -> JukeboxConfig {
            var c = defaults
            try allow(table, nil, Set(["library", "playback", "audio", "control", "state", "input", "display", "network", "jingles", "cards", "snapcast", "web", "zeroconf"] + Self.timerSections))
            if let t = try section("library") {
                try allow(t, "library", ["music_dir", "playlists_dir", "playlist", "remember_position"])
                c.library.rememberPosition = try strings(t, "library", "remember_position") ?? c.library.rememberPosition
                c.library.playlist = try string(t, "library", "playlist") ?? c.library.playlist
                c.library.musicDirectory = try string(t, "library", "music_dir") ?? c.library.musicDirectory
                c.library.playlistsDirectory = try string(t, "library", "playlists_dir") ?? c.library.playlistsDirectory
            }
            if let t = try section("playback") {
                let s = "playback"
                try allow(t, s, ["autoplay", "resume", "mode", "start_volume", "min_volume", "max_volume", "volume_step",
                                 "previous_restart_seconds", "skip_seconds", "scan_step_seconds", "scan_interval_ms",
                                 "resume_after_interruption", "history_size",
                                 "replay_gain", "replay_gain_preamp", "replay_gain_missing_preamp", "replay_gain_limit", "speed"])
                var p = c.playback.player
                c.playback.autoplay = try bool(t, s, "autoplay") ?? c.playback.autoplay
                c.playback.resume = try choice(t, s, "resume") ?? c.playback.resume
                p.mode = try choice(t, s, "mode") ?? p.mode
                p.replayGain.mode = try choice(t, s, "replay_gain") ?? p.replayGain.mode
                let preamps = ReplayGainSettings.preampRange
                p.replayGain.preampDecibels = try double(t, s, "replay_gain_preamp", preamps) ?? p.replayGain.preampDecibels
                p.replayGain.missingPreampDecibels = try double(t, s, "replay_gain_missing_preamp", preamps) ?? p.replayGain.missingPreampDecibels
                p.replayGain.preventClipping = try bool(t, s, "replay_gain_limit") ?? p.replayGain.preventClipping
                p.startVolume = try int(t, s, "start_volume", 0...100) ?? p.startVolume
                p.minimumVolume = try int(t, s, "min_volume", 0...100) ?? p.minimumVolume
                p.maximumVolume = try int(t, s, "max_volume", 0...100) ?? p.maximumVolume
                p.volumeStep = try int(t, s, "volume_step", 1...50) ?? p.volumeStep
                p.previousRestartSeconds = try double(t, s, "previous_restart_seconds", 0...60) ?? p.previousRestartSeconds
                c.playback.skipSeconds = try double(t, s, "skip_seconds", 1...600) ?? c.playback.skipSeconds
                p.scanStepSeconds = try double(t, s, "scan_step_seconds", 1...120) ?? p.scanStepSeconds
                p.scanIntervalMilliseconds = try int(t, s, "scan_interval_ms", 50...5000) ?? p.scanIntervalMilliseconds
                p.resumeAfterInterruption = try bool(t, s, "resume_after_interruption") ?? p.resumeAfterInterruption
                p.historyLimit = try int(t, s, "history_size", 1...10_000) ?? p.historyLimit
                if let speed = try double(t, s, "speed", PlaybackSpeed.range) {
                    guard PlaybackSpeed.clamped(speed) == speed else {
                        throw error(s, "speed", "speed is \(speed); it goes in steps of 0.05, such as \(PlaybackSpeed.text(speed))")
                    }
                    p.speed = speed
                }
                if p.minimumVolume > p.maximumVolume {
                    throw error(s, "min_volume", "min_volume (\(p.minimumVolume)) is above max_volume (\(p.maximumVolume))")
                }
                c.playback.player = p
            }
            if let t = try section("audio") {
                let s = "audio"
                try allow(t, s, ["device", "devices", "allow_conversion", "buffer_ms", "period_ms", "resume_on_reconnect", "on_output_lost",
                                 "mixer", "mixer_device", "mixer_index"])
                var o = c.audio.output
                o.device = try string(t, s, "device") ?? o.device
                if t["devices"] != nil, t["device"] != nil {
                    throw error(s, "devices", "set either device or devices, not both (devices is the ordered list; device one of them)")
                }
                if let list = try strings(t, s, "devices") {
                    guard !list.isEmpty else { throw error(s, "devices", "devices is empty; name at least one device, such as \"default\"") }
                    c.audio.devices = list
                    o.device = list[0]
                } else {
                    c.audio.devices = [o.device]
                }
                c.playback.player.resumeOnReconnect = try bool(t, s, "resume_on_reconnect") ?? c.playback.player.resumeOnReconnect
                if let policy = try string(t, s, "on_output_lost") {
                    guard let p = OutputLossPolicy(rawValue: policy) else {
                        throw error(s, "on_output_lost", "on_output_lost is \"\(policy)\"; it must be \"pause\" or \"continue\"")
                    }
                    c.audio.onOutputLost = p
                }
                o.allowConversion = try bool(t, s, "allow_conversion") ?? o.allowConversion
                if let mixer = try string(t, s, "mixer") {
                    guard !mixer.isEmpty else { throw error(s, "mixer", "mixer is empty; use \"auto\", \"software\", \"none\" or a control's name") }
                    o.mixer = MixerChoice(mixer)
                }
                o.mixerDevice = try string(t, s, "mixer_device") ?? o.mixerDevice
                o.mixerIndex = try int(t, s, "mixer_index", 0...31) ?? o.mixerIndex
                o.bufferMilliseconds = try int(t, s, "buffer_ms", 20...2000) ?? o.bufferMilliseconds
                o.periodMilliseconds = try int(t, s, "period_ms", 2...100) ?? o.periodMilliseconds
                if o.periodMilliseconds * 2 > o.bufferMilliseconds {
                    throw error(s, "period_ms", "period_ms (\(o.periodMilliseconds)) must be at most half of buffer_ms (\(o.bufferMilliseconds))")
                }
                c.audio.output = o
                for device in c.audio.devices where SnapcastTarget.names(device) {
                    do {
                        _ = try SnapcastTarget(device: device)
                    } catch {
                        throw self.error(s, t["devices"] != nil ? "devices" : "device", "\(device): \(error)")
                    }
                }
            }
            if let t = try section("snapcast") {
                let s = "snapcast"
                try allow(t, s, ["format", "latency_ms", "dither"])
                if let text = try string(t, s, "format") {
                    guard let format = SnapcastFormat(text) else {
                        throw error(s, "format", "format is \"\(text)\"; it is snapserver's sampleformat, RATE:BITS:CHANNELS such as \"48000:16:2\" (bits 16, 24 or 32)")
                    }
                    c.audio.snapcast.format = format
                }
                c.audio.snapcast.latencyMilliseconds = try int(t, s, "latency_ms", 0...10_000) ?? c.audio.snapcast.latencyMilliseconds
                c.audio.snapcast.dither = try bool(t, s, "dither") ?? c.audio.snapcast.dither
            }
            if let t = try section("control") {
                let s = "control"
                try allow(t, s, ["socket", "tcp_port", "tcp_address", "password", "keyboard", "connection_timeout", "max_connections",
                                 "max_command_list_size", "password_timeout", "max_output_buffer_size"])
                c.control.socketPath = try string(t, s, "socket") ?? c.control.socketPath
                c.control.tcpPort = try int(t, s, "tcp_port", 0...65535) ?? c.control.tcpPort
                if let address = try string(t, s, "tcp_address") {
                    guard ControlServer.TCPAddress(address) != nil else {
                        throw error(s, "tcp_address", "tcp_address must be an IP address: \"127.0.0.1\" (this machine), \"0.0.0.0\" (every network), \"::\" or one of the machine's own")
                    }
                    c.control.tcpAddress = address
                }
                if let password = try string(t, s, "password") {
                    guard !password.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else {
                        throw error(s, "password", "password must be one line")
                    }
                    c.control.password = password
                }
                c.control.keyboard = try bool(t, s, "keyboard") ?? c.control.keyboard
                var l = c.control.limits
                l.connectionTimeoutSeconds = try int(t, s, "connection_timeout", 1...86_400) ?? l.connectionTimeoutSeconds
                l.maximumConnections = try int(t, s, "max_connections", 1...1000) ?? l.maximumConnections
                if let kib = try int(t, s, "max_command_list_size", 1...65_536) { l.maximumCommandListBytes = kib << 10 }
                l.passwordTimeoutSeconds = try int(t, s, "password_timeout", 1...86_400) ?? l.passwordTimeoutSeconds
                if let kib = try int(t, s, "max_output_buffer_size", 64...65_536) { l.maximumOutputBytes = kib << 10 }
                c.control.limits = l
            }
            if let t = try section("web") {
                let s = "web"
                try allow(t, s, ["enabled", "address", "port", "password", "upload_folder", "max_upload_mb", "uploads_at_once", "keep_free_mb"])
                c.web.enabled = try bool(t, s, "enabled") ?? c.web.enabled
                if let address = try string(t, s, "address") {
                    guard ControlServer.TCPAddress(address) != nil else {
                        throw error(s, "address", "address must be an IP address: \"127.0.0.1\" (this machine), \"0.0.0.0\" (every network), \"::\" or one of the machine's own")
                    }
                    c.web.address = address
                }
                c.web.port = try int(t, s, "port", 1...65535) ?? c.web.port
                if let password = try string(t, s, "password") {
                    guard !password.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else {
                        throw error(s, "password", "password must be one line")
                    }
                    c.web.password = password
                }
                if let folder = try string(t, s, "upload_folder") {
                    guard !folder.isEmpty, !folder.hasPrefix("/"), !folder.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
                        throw error(s, "upload_folder", "upload_folder is a folder inside the music folder (\"Uploads\"), not \"\(folder)\"")
                    }
                    c.web.uploadFolder = folder
                }
                if let mb = try int(t, s, "max_upload_mb", 1...65_536) { c.web.maxUploadBytes = Int64(mb) << 20 }
                c.web.uploadsAtOnce = try int(t, s, "uploads_at_once", 1...16) ?? c.web.uploadsAtOnce
                if let mb = try int(t, s, "keep_free_mb", 0...1_048_576) { c.web.keepFreeBytes = Int64(mb) << 20 }
            }
            if let t = try section("zeroconf") {
                let s = "zeroconf"
                try allow(t, s, ["enabled", "name"])
                c.zeroconf.enabled = try bool(t, s, "enabled") ?? c.zeroconf.enabled
                if let name = try string(t, s, "name") {
                    if let problem = ZeroconfName.problem(name) { throw error(s, "name", problem) }
                    c.zeroconf.name = name
                }
            }
            if let t = try section("state") {
                let s = "state"
                try allow(t, s, ["file", "interval"])
                c.state.file = try string(t, s, "file") ?? c.state.file
                c.state.interval = try double(t, s, "interval", 1...3600) ?? c.state.interval
            }
            if let t = try section("display") {
                let s = "display"
                try allow(t, s, ["device", "rotate", "fonts", "size", "fill_rate"])
                if let device = try string(t, s, "device") {
                    guard let choice = DisplayChoice(device) else {
                        throw error(s, "device", "device is \"\(device)\"; it must be \"auto\", \"none\", a DRM card such as \"/dev/dri/card1\", a framebuffer such as \"/dev/fb1\", or \"png:PATH\"")
                    }
                    c.display.device = choice
                }
                if let degrees = try int(t, s, "rotate", 0...270) {
                    guard let rotation = Rotation(rawValue: degrees) else {
                        throw error(s, "rotate", "rotate is \(degrees); it must be 0, 90, 180 or 270")
                    }
                    c.display.rotate = rotation
                }
                if let fonts = try strings(t, s, "fonts") {
                    guard !fonts.isEmpty else { throw error(s, "fonts", "fonts is empty; name at least one font file") }
                    c.display.fonts = fonts
                }
                if let size = try string(t, s, "size") {
                    guard let (w, h) = ConfigLoader.size(size) else {
                        throw error(s, "size", "size is \"\(size)\"; it must be WIDTHxHEIGHT, such as \"320x240\", each from 64 to 4096")
                    }
                    (c.display.pngWidth, c.display.pngHeight) = (w, h)
                }
                c.display.fillRate = try int(t, s, "fill_rate", 1...ScreenRenderer.fastestFill) ?? c.display.fillRate
            }
            if let t = try section("network") {
                let s = "network"
                try allow(t, s, ["cache_dir", "cache_mb", "prebuffer_seconds", "timeout_seconds"])
                c.network.timeoutSeconds = try int(t, s, "timeout_seconds", 1...120) ?? c.network.timeoutSeconds
                c.network.prebufferSeconds = try double(t, s, "prebuffer_seconds", 0...30) ?? c.network.prebufferSeconds
                c.network.cacheDirectory = try string(t, s, "cache_dir") ?? c.network.cacheDirectory
                if let mb = try int(t, s, "cache_mb", 0...1_048_576) { c.network.cacheBytes = Int64(mb) << 20 }
            }
            if let t = try section("jingles") {
                let s = "jingles"
                try allow(t, s, Set(Jingle.allCases.map(\.rawValue) + ["volume"]))
                c.jingles.volume = try int(t, s, "volume", 0...100) ?? c.jingles.volume
                for jingle in Jingle.allCases {
                    guard let file = try string(t, s, jingle.rawValue), !file.isEmpty else { continue }
                    let folder = Self.folder(of: path)
                    c.jingles.sounds[jingle] = file.hasPrefix("/") ? file : (folder == "/" ? "" : folder) + "/" + file
                }
            }
            if let t = try section("cards") {
                let s = "cards"
                try allow(t, s, ["file", "mode", "again", "removal_grace_ms", "allow_shutdown"])
                c.cards.file = try string(t, s, "file") ?? c.cards.file
                c.cards.mode = try choice(t, s, "mode") ?? c.cards.mode
                c.cards.again = try choice(t, s, "again") ?? c.cards.again
                c.cards.removalGraceMilliseconds = try int(t, s, "removal_grace_ms", 0...60_000) ?? c.cards.removalGraceMilliseconds
                c.cards.allowShutdown = try bool(t, s, "allow_shutdown") ?? c.cards.allowShutdown
            }
            if let t = try section("input") {
                c.input = try readInput(t, skipSeconds: c.playback.skipSeconds)
            }
            c.timers = try readTimers()
            return c
        }

        /// The folder a file is in ("." for a bare name).
        static func folder(of path: String) -> String {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            return slash == path.startIndex ? "/" : String(path[..<slash])
        }

        func section(_ name: String) throws -> TOMLTable? {
            guard let value = table[name] else { return nil }
            guard let t = value.table else { throw error(nil, name, "\(name) must be a [\(name)] section") }
            return t
        }

        func allow(_ t: TOMLTable, _ section: String?, _ keys: Set<String>) throws {
            for key in t.keys.sorted() where !keys.contains(key) {
                let known = keys.sorted().joined(separator: ", ")
                let suggestion = Self.closest(key, in: keys).map { "; did you mean \"\($0)\"?" } ?? ""
                let place = section.map { "[\($0)]" } ?? "the top level"
                throw error(section, key, "unknown key \"\(key)\" in \(place)\(suggestion) (known: \(known))")
            }
        }

        func string(_ t: TOMLTable, _ s: String, _ key: String) throws -> String? {
            guard let v = t[key] else { return nil }
            guard let text = v.string else { throw error(s, key, "\(key) must be a string in quotes") }
            return text
        }

        /// One of a fixed set of words, such as a mode.
        func choice<Choice: RawRepresentable & CaseIterable>(_ t: TOMLTable, _ s: String, _ key: String) throws -> Choice?
            where Choice.RawValue == String {
            guard let text = try string(t, s, key) else { return nil }
            guard let chosen = Choice(rawValue: text) else {
                throw error(s, key, "\(key) must be one of \(Choice.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
            }
            return chosen
        }

        func strings(_ t: TOMLTable, _ s: String, _ key: String) throws -> [String]? {
            guard let v = t[key] else { return nil }
            guard let array = v.array else { throw error(s, key, "\(key) must be a list of strings in brackets, such as [\"first\", \"second\"]") }
            return try array.map { item in
                guard let text = item.string else { throw error(s, key, "\(key) must hold strings in quotes") }
                return text
            }
        }

        func bool(_ t: TOMLTable, _ s: String, _ key: String) throws -> Bool? {
            guard let v = t[key] else { return nil }
            guard let b = v.bool else { throw error(s, key, "\(key) must be true or false") }
            return b
        }

        func int(_ t: TOMLTable, _ s: String, _ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let v = t[key] else { return nil }
            guard let n = v.int else { throw error(s, key, "\(key) must be a whole number") }
            guard range.contains(n) else {
                throw error(s, key, "\(key) is \(n); it must be from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }

        func double(_ t: TOMLTable, _ s: String, _ key: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let v = t[key] else { return nil }
            guard let n = v.double ?? v.int.map(Double.init) else { throw error(s, key, "\(key) must be a number") }
            guard range.contains(n) else {
                throw error(s, key, "\(key) is \(n); it must be from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }

        func error(_ section: String?, _ key: String?, _ reason: String) -> ConfigError {
            let (line, column) = locator.position(section: section, index: index, key: key)
            return ConfigError(path: path, line: line, column: column, reason: reason)
        }

        /// The known key within two edits of a mistyped one.
        static func closest(_ key: String, in keys: Set<String>) -> String? {
            keys.map { ($0, editDistance(key, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
        }

        static func editDistance(_ a: String, _ b: String) -> Int {
            let a = Array(a), b = Array(b)
            var row = Array(0...b.count)
            for i in 1...max(1, a.count) where !a.isEmpty {
                var previous = row[0]
                row[0] = i
                for j in 1...max(1, b.count) where !b.isEmpty {
                    let old = row[j]
                    row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                    previous = old
                }
            }
            return a.isEmpty ? b.count : row[b.count]
        }
    }
}
