/// `jukebox demo-library DIR`: a handful of short songs made here, so a new box has
/// something to play. Public-domain melodies arranged for plucked strings, pad, bass and
/// drums; tagged (one Chinese title); each with an LRC sidecar timed to its phrases, the
/// Chinese one saved in GBK as such files often are.
public enum DemoLibrary {
    struct Phrase {
        var lyric: String
        /// Notes as "C4:1 D4:0.5 R:1" (R is a rest), lengths in beats.
        var notes: String
        /// Chord roots, one per bar of four beats; a trailing "m" makes it minor.
        var chords: String
    }

    struct Song {
        var file: String
        var title: String
        var artist = "Jukebox Demo Band"
        var album = "Jukebox Demo"
        var track: Int
        var tempo: Double
        var phrases: [Phrase]
        var gbkLyrics = false
        var lrcTags: [String] = []
    }

    static let songs: [Song] = [
        Song(file: "01 Twinkle Twinkle.flac", title: "Twinkle, Twinkle, Little Star", track: 1, tempo: 112, phrases: [
            Phrase(lyric: "Twinkle, twinkle, little star", notes: "C4:1 C4:1 G4:1 G4:1 A4:1 A4:1 G4:2", chords: "C C"),
            Phrase(lyric: "How I wonder what you are", notes: "F4:1 F4:1 E4:1 E4:1 D4:1 D4:1 C4:2", chords: "F C"),
            Phrase(lyric: "Up above the world so high", notes: "G4:1 G4:1 F4:1 F4:1 E4:1 E4:1 D4:2", chords: "C G"),
            Phrase(lyric: "Like a diamond in the sky", notes: "G4:1 G4:1 F4:1 F4:1 E4:1 E4:1 D4:2", chords: "C G"),
            Phrase(lyric: "Twinkle, twinkle, little star", notes: "C4:1 C4:1 G4:1 G4:1 A4:1 A4:1 G4:2", chords: "C F"),
            Phrase(lyric: "How I wonder what you are", notes: "F4:1 F4:1 E4:1 E4:1 D4:1 D4:1 C4:2", chords: "G C"),
        ]),
        Song(file: "02 茉莉花.flac", title: "茉莉花", artist: "点唱机乐队", track: 2, tempo: 84, phrases: [
            Phrase(lyric: "好一朵美丽的茉莉花", notes: "E4:1 E4:0.5 G4:0.5 A4:0.5 C5:0.5 C5:0.5 A4:0.5 G4:1 G4:0.5 A4:0.5 G4:2", chords: "C C"),
            Phrase(lyric: "好一朵美丽的茉莉花", notes: "E4:1 E4:0.5 G4:0.5 A4:0.5 C5:0.5 C5:0.5 A4:0.5 G4:1 G4:0.5 A4:0.5 G4:2", chords: "C C"),
            Phrase(lyric: "芬芳美丽满枝桠", notes: "G4:1 G4:1 G4:1 E4:0.5 G4:0.5 A4:1 A4:1 G4:2", chords: "C Am"),
            Phrase(lyric: "又香又白人人夸", notes: "E4:1 D4:0.5 E4:0.5 G4:1 E4:0.5 D4:0.5 C4:1 C4:0.5 D4:0.5 C4:2", chords: "F C"),
            Phrase(lyric: "让我来将你摘下", notes: "E4:0.5 D4:0.5 C4:0.5 E4:0.5 D4:1.5 E4:0.5 G4:1 A4:0.5 C5:0.5 G4:2", chords: "G C"),
            Phrase(lyric: "送给别人家", notes: "D4:1 E4:0.5 G4:0.5 D4:0.5 E4:0.5 C4:0.5 A3:0.5 G3:4", chords: "G C"),
        ], gbkLyrics: true, lrcTags: ["ti:茉莉花", "ar:点唱机乐队"]),
        Song(file: "03 Ode to Joy.flac", title: "Ode to Joy", artist: "Jukebox Demo Band (after Beethoven)", track: 3, tempo: 120, phrases: [
            Phrase(lyric: "Freude, schöner Götterfunken", notes: "E4:1 E4:1 F4:1 G4:1 G4:1 F4:1 E4:1 D4:1", chords: "C G"),
            Phrase(lyric: "Tochter aus Elysium", notes: "C4:1 C4:1 D4:1 E4:1 E4:1.5 D4:0.5 D4:2", chords: "C G"),
            Phrase(lyric: "Wir betreten feuertrunken", notes: "E4:1 E4:1 F4:1 G4:1 G4:1 F4:1 E4:1 D4:1", chords: "C G"),
            Phrase(lyric: "Himmlische, dein Heiligtum", notes: "C4:1 C4:1 D4:1 E4:1 D4:1.5 C4:0.5 C4:2", chords: "G C"),
        ], lrcTags: ["ti:Ode to Joy", "by:jukebox demo-library"]),
        Song(file: "04 Frère Jacques.flac", title: "Frère Jacques", track: 4, tempo: 116, phrases: [
            Phrase(lyric: "Frère Jacques, frère Jacques", notes: "C4:1 D4:1 E4:1 C4:1 C4:1 D4:1 E4:1 C4:1", chords: "C C"),
            Phrase(lyric: "Dormez-vous? Dormez-vous?", notes: "E4:1 F4:1 G4:2 E4:1 F4:1 G4:2", chords: "C C"),
            Phrase(lyric: "Sonnez les matines", notes: "G4:0.5 A4:0.5 G4:0.5 F4:0.5 E4:1 C4:1 G4:0.5 A4:0.5 G4:0.5 F4:0.5 E4:1 C4:1", chords: "C C"),
            Phrase(lyric: "Ding, dang, dong", notes: "C4:1 G3:1 C4:2 C4:1 G3:1 C4:2", chords: "C C"),
        ]),
    ]

    /// Writes the songs and their lyrics into `folder`; returns the paths written.
    public static func write(to folder: String) throws -> [String] {
        try makeFolder(folder)
        var written: [String] = []
        for song in songs {
            let (pcm, lineTimes) = render(song)
            let path = "\(folder)/\(song.file)"
            let writer = try FLACFileWriter(path: path, sampleRate: Synth.rate, channels: 2, tags: [
                ("TITLE", song.title), ("ARTIST", song.artist), ("ALBUM", song.album),
                ("TRACKNUMBER", "\(song.track)/\(songs.count)"), ("DATE", "2026"), ("GENRE", "Demo"),
            ])
            try writer.write(pcm)
            try writer.finish()
            written.append(path)
            let lrcPath = String(path.dropLast(5)) + ".lrc"
            var lrc = song.lrcTags.map { "[\($0)]" }
            for (phrase, ms) in zip(song.phrases, lineTimes) { lrc.append("[\(LRCTime.format(ms))]\(phrase.lyric)") }
            let text = lrc.joined(separator: "\r\n") + "\r\n"
            let bytes = song.gbkLyrics ? (TextDecoding.encode(text, to: "GBK") ?? Array(text.utf8)) : Array(text.utf8)
            try writeFile(lrcPath, bytes)
            written.append(lrcPath)
        }
        let coverPath = "\(folder)/cover.png"
        try writeFile(coverPath, try PNGCodec.encode(width: coverSide, height: coverSide, pixels: cover()))
        written.append(coverPath)
        return written
    }

    static let coverSide = 300

    /// The album's cover: a record on a sunset gradient, drawn here so the demo shows
    /// cover art on the screen.
    static func cover() -> [UInt32] {
        let n = coverSide
        var pixels = [UInt32](repeating: 0, count: n * n)
        let centre = Double(n) / 2
        for y in 0..<n {
            for x in 0..<n {
                let t = Double(y) / Double(n - 1)
                var r = 255 * (1 - t) + 120 * t, g = 150 * (1 - t) + 40 * t, b = 60 * (1 - t) + 140 * t
                let d = ((Double(x) - centre) * (Double(x) - centre) + (Double(y) - centre) * (Double(y) - centre)).squareRoot()
                if d < centre * 0.8 {
                    // Grooves, then the label.
                    let groove = 18 + 10 * (Int(d / 3) % 2 == 0 ? 1.0 : 0.0)
                    (r, g, b) = d < centre * 0.28 ? (250, 214, 90) : (groove, groove, groove + 4)
                    if d < centre * 0.04 { (r, g, b) = (16, 16, 16) }
                }
                pixels[y * n + x] = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            }
        }
        return pixels
    }

    /// The song's samples, and when each phrase starts (ms).
    static func render(_ song: Song) -> ([Int16], [Int]) {
        let beat = 60 / song.tempo
        let intro = 4 * beat
        let beats = song.phrases.reduce(0) { $0 + noteList($1.notes).reduce(0) { $0 + $1.beats } }
        var synth = Synth(seconds: intro + beats * beat + 2)
        var t = intro
        var lineTimes: [Int] = []
        // A bar of drums alone to start.
        for b in 0..<4 { drums(&synth, at: Double(b) * beat, beat: beat, downbeat: b % 2 == 0) }
        for phrase in song.phrases {
            lineTimes.append(Int((t * 1000).rounded()))
            let notes = noteList(phrase.notes)
            let length = notes.reduce(0) { $0 + $1.beats }
            let chords = phrase.chords.split(separator: " ").map(String.init)
            let barBeats = length / Double(max(1, chords.count))
            for (i, chord) in chords.enumerated() {
                let start = t + Double(i) * barBeats * beat
                let (root, minor) = chordRoot(chord)
                synth.pad([root, root + (minor ? 3 : 4), root + 7].map { $0 + 12 }, at: start, length: barBeats * beat, gain: 0.18)
                for b in 0..<Int(barBeats) {
                    synth.bass(root - 12 + (b % 2 == 1 ? 7 : 0), at: start + Double(b) * beat, length: beat * 0.9, gain: 0.35)
                    drums(&synth, at: start + Double(b) * beat, beat: beat, downbeat: b % 2 == 0)
                }
            }
            var n = t
            for note in notes {
                if let midi = note.midi {
                    synth.pluck(midi, at: n, length: note.beats * beat, gain: 0.7, pan: -0.2)
                    synth.pluck(midi - 12, at: n + 0.012, length: note.beats * beat, gain: 0.25, pan: 0.3)
                }
                n += note.beats * beat
            }
            t += length * beat
        }
        synth.pad([48, 52, 55, 60], at: t, length: 1.8, gain: 0.18)
        return (synth.pcm16(), lineTimes)
    }

    private static func drums(_ synth: inout Synth, at time: Double, beat: Double, downbeat: Bool) {
        if downbeat { synth.kick(at: time, gain: 0.5) }
        synth.hat(at: time, gain: 0.06)
        synth.hat(at: time + beat / 2, gain: 0.04)
    }

    static func noteList(_ text: String) -> [(midi: Int?, beats: Double)] {
        text.split(separator: " ").map { token in
            let parts = token.split(separator: ":")
            let beats = parts.count > 1 ? Double(parts[1]) ?? 1 : 1
            return (midi(String(parts[0])), beats)
        }
    }

    /// "C4" → 60, "A3" → 57, "F#4" → 66; "R" is a rest.
    static func midi(_ name: String) -> Int? {
        guard name != "R", let letter = name.first, let octave = Int(name.filter(\.isNumber)) else { return nil }
        let base = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11][String(letter)] ?? 0
        let accidental = name.contains("#" as Character) ? 1 : name.dropFirst().hasPrefix("b") ? -1 : 0
        return 12 * (octave + 1) + base + accidental
    }

    static func chordRoot(_ chord: String) -> (Int, Bool) {
        let minor = chord.hasSuffix("m")
        return (midi(String(chord.prefix { $0 != "m" }) + "3") ?? 48, minor)
    }

    private static func makeFolder(_ path: String) throws {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/\(part)"
            do {
                try systemCall { mkdir(built, 0o755) }
            } catch .exists {
                continue
            } catch {
                throw MediaError.unreadable(path, "cannot create folder: \(error)")
            }
        }
    }

    private static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let fd: Int32
        do { fd = try systemCall { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } } catch {
            throw MediaError.unreadable(path, "cannot create: \(error)")
        }
        defer { close(fd) }
        do { try writeAll(fd, bytes) } catch {
            throw MediaError.unreadable(path, "cannot write: \(error)")
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
