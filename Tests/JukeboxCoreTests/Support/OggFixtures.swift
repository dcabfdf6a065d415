import Foundation

/// Ogg Vorbis and Opus files made at test time with oggenc and opusenc from sox's signals,
/// in the shared fixture folder (so the web server serves them too). Made on first use:
/// runs that never touch Ogg do not pay for them.
final class OggFixtures: Sendable {
    static let shared: OggFixtures = {
        do { return try OggFixtures() } catch { fatalError("cannot make Ogg fixtures: \(error)") }
    }()

    let fx = Fixtures.shared

    /// Each format in mono and stereo, from a 44.1 and a 48 kHz source: name and frames.
    static let vorbis: [(name: String, rate: Int, channels: Int, frames: Int64)] = [
        ("stereo44.ogg", 44_100, 2, 264_600), ("mono44.ogg", 44_100, 1, 264_600),
        ("stereo48.ogg", 48_000, 2, 192_000), ("mono48.ogg", 48_000, 1, 192_000),
    ]
    /// Opus decodes at 48 kHz whatever it was given: 6 s of 44.1 kHz are 288,000 frames.
    static let opus: [(name: String, channels: Int, frames: Int64)] = [
        ("stereo44.opus", 2, 288_000), ("mono44.opus", 1, 288_000),
        ("stereo48.opus", 2, 192_000), ("mono48.opus", 1, 192_000),
    ]
    /// Where the gapless album's signal is cut, in frames of 48 kHz: not on any block.
    static let albumCuts: [Int64] = [0, 100_003, 211_111, 336_000]

    private init() throws {
        let cover = try fx.bytes("cover.png")
        try sox([fx.path("music16.wav"), "-c", "1", fx.path("mono44.wav")])
        try sox(["-n", "-r", "48000", "-b", "16", "-c", "2", fx.path("stereo48.wav"),
                 "synth", "4", "pluck", "A2", "pluck", "D4", "gain", "-4"])
        try sox([fx.path("stereo48.wav"), "-c", "1", fx.path("mono48.wav")])

        let tags = ["-t", "Plucked", "-a", "Test Band", "-l", "Fixtures", "-N", "3", "-c", "TRACKTOTAL=12",
                    "-c", "REPLAYGAIN_TRACK_GAIN=-6.5 dB", "-c", "REPLAYGAIN_ALBUM_PEAK=0.9",
                    "-c", "METADATA_BLOCK_PICTURE=\(Self.pictureTag(cover))"]
        try oggenc(tags + [fx.path("music16.wav"), "-o", fx.path("stereo44.ogg")])
        try oggenc([fx.path("mono44.wav"), "-o", fx.path("mono44.ogg")])
        try oggenc([fx.path("stereo48.wav"), "-o", fx.path("stereo48.ogg")])
        try oggenc([fx.path("mono48.wav"), "-o", fx.path("mono48.ogg")])

        try opusenc(["--title", "Plucked", "--artist", "Test Band", "--album", "Fixtures", "--comment", "TRACKNUMBER=3/12",
                     "--comment", "R128_TRACK_GAIN=-512", "--picture", "3||front||\(fx.path("cover.png"))",
                     fx.path("music16.wav"), fx.path("stereo44.opus")])
        try opusenc([fx.path("mono44.wav"), fx.path("mono44.opus")])
        try opusenc([fx.path("stereo48.wav"), fx.path("stereo48.opus")])
        try opusenc([fx.path("mono48.wav"), fx.path("mono48.opus")])

        // Six channels, each its own loudness (a low tone, which even the LFE carries), to
        // show where each channel lands.
        try sox(["-n", "-r", "48000", "-b", "16", "-c", "6", fx.path("surround.wav"), "synth", "2", "sine", "80",
                 "remix", "1v0.05", "1v0.1", "1v0.2", "1v0.35", "1v0.5", "1v0.7"])
        try oggenc([fx.path("surround.wav"), "-o", fx.path("surround.ogg")])
        try opusenc([fx.path("surround.wav"), fx.path("surround.opus")])

        // A gapless album: one signal cut in three, each part encoded on its own.
        try sox(["-n", "-r", "48000", "-b", "16", "-c", "2", fx.path("album.wav"),
                 "synth", "7", "sine", "300-900", "sine", "440", "gain", "-8"])
        for part in 0..<3 {
            let start = Self.albumCuts[part], length = Self.albumCuts[part + 1] - start
            let wav = fx.path("album\(part).wav")
            try sox([fx.path("album.wav"), wav, "trim", "\(start)s", "\(length)s"])
            try oggenc([wav, "-o", fx.path("album\(part).ogg")])
            try opusenc([wav, fx.path("album\(part).opus")])
        }
    }

    /// A `METADATA_BLOCK_PICTURE` value: a FLAC PICTURE block (front cover, PNG), in base64.
    static func pictureTag(_ image: [UInt8], type: UInt32 = 3, mime: String = "image/png", description: String = "front") -> String {
        var block: [UInt8] = []
        func u32(_ v: UInt32) { block += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        u32(type)
        u32(UInt32(mime.utf8.count)); block += Array(mime.utf8)
        u32(UInt32(description.utf8.count)); block += Array(description.utf8)
        u32(100); u32(64); u32(24); u32(0)
        u32(UInt32(image.count)); block += image
        return Data(block).base64EncodedString()
    }

    private func sox(_ args: [String]) throws { try Tools.run("sox", args) }
    private func oggenc(_ args: [String]) throws { try Tools.run("oggenc", ["-Q"] + args) }
    private func opusenc(_ args: [String]) throws { try Tools.run("opusenc", ["--quiet"] + args) }

    /// `oggdec`'s output as raw signed 16-bit little-endian.
    func oggdecReference(_ name: String) throws -> Data {
        try Tools.run("oggdec", ["-Q", "-R", "-o", "-", fx.path(name)]).stdout
    }

    /// `opusdec`'s output at 48 kHz, raw, undithered (as the decoder decodes).
    func opusdecReference(_ name: String) throws -> Data {
        try Tools.run("opusdec", ["--quiet", "--no-dither", "--rate", "48000", fx.path(name), "-"]).stdout
    }

    func reference(_ name: String) throws -> Data {
        name.hasSuffix(".opus") ? try opusdecReference(name) : try oggdecReference(name)
    }

    func path(_ name: String) -> String { fx.path(name) }
}
