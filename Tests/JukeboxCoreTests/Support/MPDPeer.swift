import Foundation

/// MPD as the protocol's oracle: `mpd --no-daemon` on a music folder, with a null output
/// named as the box names its own (`null-sink`) and a software mixer as the box has there,
/// and its own database, stored playlists and socket in a folder of its own.
final class MPDPeer {
    /// Which MPD: Debian's own (bookworm's 0.23), or the current release from
    /// bookworm-backports, which `Tests/Peers/fetch-mpd` unpacks into the project's cache.
    enum Release: String, CaseIterable {
        case bookworm = "0.23.12"
        case backports = "0.24.2"

        var binary: String {
            get throws {
                switch self {
                case .bookworm: return try Tools.path(of: "mpd")
                case .backports:
                    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized.path
                    let path = root + "/.cache/peers/mpd-\(rawValue)/usr/bin/mpd"
                    guard FileManager.default.isExecutableFile(atPath: path) else {
                        throw Tools.ToolFailure(description: "MPD \(rawValue) is not in \(path); run Tests/Peers/fetch-mpd (scripts/test does)")
                    }
                    return path
                }
            }
        }
    }

    let release: Release
    let socket: String
    let folder: String
    private let process = Process()

    /// `stickerFile` turns MPD's sticker database on (`sticker_file`), kept where it names
    /// (outside the peer's folder, so a second peer can open it again).
    init(name: String, musicDirectory: String, playlistsDirectory: String, stickerFile: String? = nil,
         release: Release = .bookworm) throws {
        self.release = release
        folder = NSTemporaryDirectory() + "jukebox-mpd-\(name)-\(release.rawValue)-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        socket = folder + "/socket"
        let config = """
            music_directory "\(musicDirectory)"
            playlist_directory "\(playlistsDirectory)"
            db_file "\(folder)/database"
            log_file "\(folder)/log"
            bind_to_address "\(socket)"
            auto_update "no"
            zeroconf_enabled "no"
            \(stickerFile.map { "sticker_file \"\($0)\"" } ?? "")
            audio_output {
                type "null"
                name "null-sink"
                mixer_type "software"
            }

            """
        try config.write(toFile: folder + "/mpd.conf", atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: try release.binary)
        process.arguments = ["--no-daemon", folder + "/mpd.conf"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Kills MPD at once, as a power cut would, and waits for it to be gone.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var log: String { (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "" }

    /// Scans the music folder and waits until the database holds `songs` songs.
    func scan(expecting songs: Int, seconds: Double = 30) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: socket) {
            guard Date() < deadline, process.isRunning else { return false }
            usleep(50_000)
        }
        // The socket's file is there once MPD has bound it, a moment before it listens.
        var connected: RawMPDConnection?
        while connected == nil {
            do {
                connected = try RawMPDConnection(socket: socket)
            } catch {
                guard Date() < deadline, process.isRunning else { throw error }
                usleep(50_000)
            }
        }
        guard let connection = connected else { return false }
        // MPD scans a new database as it starts: asked again only when it has not, since
        // MPD 0.24.2 loses the playlist files a second scan finds unchanged (0.24.5 fixed it).
        if !connection.reply(to: "status").contains(where: { $0.hasPrefix("updating_db:") }),
           !connection.reply(to: "stats").contains("songs: \(songs)") {
            _ = connection.reply(to: "update")
        }
        while Date() < deadline {
            let status = connection.reply(to: "status")
            let stats = connection.reply(to: "stats")
            if !status.contains(where: { $0.hasPrefix("updating_db:") }), stats.contains("songs: \(songs)") { return true }
            usleep(100_000)
        }
        return false
    }
}
