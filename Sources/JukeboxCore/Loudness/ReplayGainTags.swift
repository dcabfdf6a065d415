/// The loudness a file's tags state, in ReplayGain's terms: a gain in dB that brings the
/// track (or its album) to the ReplayGain reference (−18 LUFS, 89 dB SPL), and the
/// sample peak (1.0 = full scale) that gain must not push past.
///
/// Read from `REPLAYGAIN_*` (Vorbis comments, ID3 `TXXX`, MP4 freeform atoms), from Opus's
/// `R128_*` (Q7.8 dB relative to −23 LUFS, so 5 dB quieter than ReplayGain's reference)
/// and from iTunes' `iTunNORM` where nothing better is present.
public struct ReplayGainTags: Sendable, Equatable {
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    public var isEmpty: Bool { trackGain == nil && albumGain == nil }

    /// R128 gains sit 5 dB below ReplayGain's reference loudness.
    static let r128Offset = 5.0

    /// Takes one tag if it is a loudness tag (the name in any case); false otherwise, so
    /// the caller can go on with its own tags. A value that does not parse is ignored.
    @discardableResult
    public mutating func take(tag name: String, value: String) -> Bool {
        switch name.uppercased() {
        case "REPLAYGAIN_TRACK_GAIN": trackGain = Self.decibels(value) ?? trackGain
        case "REPLAYGAIN_ALBUM_GAIN": albumGain = Self.decibels(value) ?? albumGain
        case "REPLAYGAIN_TRACK_PEAK": trackPeak = Self.peak(value) ?? trackPeak
        case "REPLAYGAIN_ALBUM_PEAK": albumPeak = Self.peak(value) ?? albumPeak
        case "R128_TRACK_GAIN": trackGain = Self.q78(value).map { $0 + Self.r128Offset } ?? trackGain
        case "R128_ALBUM_GAIN": albumGain = Self.q78(value).map { $0 + Self.r128Offset } ?? albumGain
        case "ITUNNORM": if trackGain == nil { trackGain = Self.iTunNorm(value) }
        default: return false
        }
        return true
    }

    /// "-6.48 dB", "+2.1dB", "-6.48": a gain within what any real file holds.
    static func decibels(_ text: String) -> Double? {
        var t = Substring(text.trimmingSpaces)
        if t.lowercased().hasSuffix("db") { t = t.dropLast(2) }
        if t.first == "+" { t = t.dropFirst() }
        guard let value = Double(t.trimmingSpaces), value.isFinite, abs(value) <= 64 else { return nil }
        return value
    }

    static func peak(_ text: String) -> Double? {
        guard let value = Double(text.trimmingSpaces), value.isFinite, value > 0, value <= 16 else { return nil }
        return value
    }

    /// Opus's Q7.8 fixed point: a signed 16-bit integer of 1/256 dB.
    static func q78(_ text: String) -> Double? {
        guard let raw = Int(text.trimmingSpaces), (-32768...32767).contains(raw) else { return nil }
        return Double(raw) / 256
    }

    /// iTunes' Sound Check: ten hexadecimal words; the first two are 1000/volume-ratio
    /// figures per channel (the loudest channel counts). The gain is −10·log10(word/1000).
    static func iTunNorm(_ text: String) -> Double? {
        let words = text.split(separator: " ").compactMap { UInt32($0, radix: 16) }
        guard words.count >= 2 else { return nil }
        let loudest = max(words[0], words[1])
        guard loudest > 0 else { return nil }
        let gain = -10 * log10(Double(loudest) / 1000)
        return gain.isFinite && abs(gain) <= 64 ? gain : nil
    }
}

#if canImport(Glibc)
import Glibc
#endif
