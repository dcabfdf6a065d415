import Foundation

/// Audio made at test time with sox, flac and lame; nothing here was made elsewhere.
/// Built once per test run and shared (read-only) by every test.
final class Fixtures: Sendable {
    static let shared: Fixtures = {
        do { return try Fixtures() } catch { fatalError("cannot make test fixtures: \(error)") }
    }()

    let dir: String

    private init() throws {
        dir = NSTemporaryDirectory() + "jukebox-fixtures-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Daemons started by tests keep downloads here, not in the machine's
        // /var/cache/jukebox: a copy kept there by another run, under a URL whose loopback
        // port this run happens to reuse, is another run's fixture and would play instead.
        setenv("CACHE_DIRECTORY", path("download-cache"), 1)
        try make()
    }

    func path(_ name: String) -> String { "\(dir)/\(name)" }

    private func sox(_ args: [String]) throws { try Tools.run("sox", args) }

    private func make() throws {
        // A few plucked notes and a little noise: it exercises the codecs as music does.
        try sox(["-n", "-r", "44100", "-b", "16", "-c", "2", path("music16.wav"),
                 "synth", "6", "pluck", "C3", "pluck", "E4", "gain", "-4"])
        try sox(["-n", "-r", "96000", "-b", "24", "-c", "2", path("music24.wav"),
                 "synth", "4", "pluck", "G3", "pluck", "B4", "gain", "-4"])
        try sox(["-n", "-r", "48000", "-b", "24", "-c", "6", path("six.wav"), "synth", "1", "sine", "220", "gain", "-6"])
        try sox(["-n", "-r", "8000", "-b", "16", "-c", "1", path("mono8k.wav"), "synth", "2", "sine", "300", "gain", "-6"])
        try sox(["-n", "-r", "192000", "-b", "24", "-c", "2", path("hires.wav"), "synth", "1", "sine", "1000", "gain", "-6"])
        try sox(["-n", "-r", "22050", "-b", "8", "-c", "1", path("eight.wav"), "synth", "1", "sine", "500", "gain", "-6"])
        try sox(["-n", "-r", "44100", "-b", "32", "-c", "2", path("s32.wav"), "synth", "1", "sine", "500", "gain", "-6"])
        try sox([path("music16.wav"), "-n", "spectrogram", "-x", "100", "-y", "64", "-o", path("cover.png")])

        try Tools.run("flac", ["-s", "-f", "-T", "TITLE=Plucked", "-T", "ARTIST=Test Band", "-T", "ALBUM=Fixtures",
                               "-T", "ALBUMARTIST=Various", "-T", "TRACKNUMBER=3/12", "-T", "DISCNUMBER=1/2",
                               "-T", "DATE=2026", "-T", "GENRE=Test", "-T", "LYRICS=[00:01.00]one\n[00:02.00]two",
                               "--picture", "3|image/png|front|100x64x24|\(path("cover.png"))",
                               "-o", path("music16.flac"), path("music16.wav")])
        try Tools.run("flac", ["-s", "-f", "--no-seektable", "-o", path("music24.flac"), path("music24.wav")])
        try Tools.run("flac", ["-s", "-f", "--no-seektable", "-o", path("noseek16.flac"), path("music16.wav")])
        for name in ["six", "mono8k", "hires"] {
            try Tools.run("flac", ["-s", "-f", "-o", path("\(name).flac"), path("\(name).wav")])
        }
        // VBR with a Xing/LAME header, so gapless trimming applies.
        try Tools.run("lame", ["--quiet", "-V", "2", path("music16.wav"), path("music.mp3")])
        try Tools.run("lame", ["--quiet", "-b", "128", path("music16.wav"), path("cbr.mp3")])
    }

    /// `flac -d` output as raw little-endian signed PCM.
    func flacReference(_ name: String) throws -> Data {
        try Tools.run("flac", ["-s", "-d", "-c", "--force-raw-format", "--endian=little", "--sign=signed", path(name)]).stdout
    }

    /// `mpg123 -s` output: raw signed 16-bit, gapless (its default).
    func mpg123Reference(_ name: String) throws -> Data {
        try Tools.run("mpg123", ["-q", "-s", path(name)]).stdout
    }

    /// Writes `bytes` into the fixture folder under `name` and returns its path.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// A folder holding one quiet 8 kHz mono sine track, `seconds` long, made once: for
    /// tests that need the box playing for a while (power cuts, live reload).
    func sineFolder(_ name: String, seconds: Int) throws -> (folder: String, track: String) {
        let folder = try scratchFolder(name)
        let track = "\(folder)/sine.flac"
        if !FileManager.default.fileExists(atPath: track) {
            _ = try Tools.run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", track, "synth", "\(seconds)", "sine", "440"])
        }
        return (folder, track)
    }

    /// A private folder for a test that adds files next to audio (sidecars).
    func scratchFolder(_ name: String) throws -> String {
        let folder = path("scratch-\(name)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
