import ArgumentParser
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

/// Splits a recording into stretches that each continue the reference without a break,
/// and says where each sits in it. A stretch ends at silence (at least `gap` frames) or
/// where the recording stops matching (a seek). One line per stretch:
/// `segment start=R ref=F frames=N mismatched=M`: R is its first frame in the recording,
/// F the matching frame in the reference (-1 if none), M how many of its frames differ
/// (a fade at either edge does).
struct Segments: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Find recorded stretches of sound in a reference.")
    @Option var recording: String
    @Option var reference: String
    @OptionGroup var format: FormatOptions
    @Option(help: "Frames of silence that end a stretch (441 = 10 ms).") var gap = 441
    @Option(help: "Frames skipped at a stretch's start before matching (past a fade-in).") var settle = 441
    @Option(help: "Frames in a row that differ before a stretch is taken to have jumped.") var divergence = 1024

    func run() throws {
        let rec = try Samples(path: recording, format: format.format)
        let ref = try Samples(path: reference, format: format.format)
        let index = FrameIndex(ref)
        var i = 0
        while i < rec.frames {
            while i < rec.frames, rec.silent(i) { i += 1 }
            guard i < rec.frames else { break }
            var start = i
            // Where the reference resumes: probe past a fade-in, and slide on through data
            // that is not in the reference at all (stale audio a device sends on a stop).
            var found: Int?
            var probe = min(start + settle, rec.frames - 1)
            var quietRun = 0
            while found == nil, probe < rec.frames - 1 {
                found = index.find(rec, at: probe, count: min(64, rec.frames - probe))
                if found == nil {
                    quietRun = rec.silent(probe) ? quietRun + 1 : 0
                    if quietRun >= gap { break }
                    probe += 1
                }
            }
            guard let found else {
                let end = probe - quietRun
                print("segment start=\(start) ref=-1 frames=\(end - start) mismatched=\(end - start)")
                i = probe
                continue
            }
            // The stretch begins where its fade-in begins: walk back from the first exact
            // match while frames are the reference scaled toward zero.
            var matchStart = probe
            while matchStart > start, rec.fadeOf(ref, matchStart - 1, found - (probe - matchStart) - 1) { matchStart -= 1 }
            if matchStart > start {
                // Before it, data that is not in the reference: reported on its own.
                print("segment start=\(start) ref=-1 frames=\(matchStart - start) mismatched=\(matchStart - start)")
                start = matchStart
            }
            i = start
            let refStart = found - (probe - start)
            var lastMatch = start - 1
            var mismatched = 0
            var quiet = 0
            var differing = 0
            while i < rec.frames, quiet < gap, differing < divergence {
                if rec.equal(i, ref, refStart + (i - start)) {
                    lastMatch = i
                    differing = 0
                    quiet = 0
                } else if rec.silent(i) {
                    quiet += 1  // silence ends a stretch; it is not a mismatch
                } else {
                    differing += 1
                    mismatched += 1
                    quiet = 0
                }
                i += 1
            }
            let end = max(lastMatch + 1, start + 1)
            if differing >= divergence {
                mismatched -= differing
                i = end  // the next stretch starts where this one stopped matching
            }
            print("segment start=\(start) ref=\(refStart) frames=\(end - start) mismatched=\(mismatched)")
        }
    }
}

/// Interleaved PCM frames as integers.
struct Samples {
    let values: [Int32]
    let channels: Int
    var frames: Int { values.count / channels }

    init(path: String, format: OutputFormat) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ValidationError("cannot open \(path)") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        let width = format.sampleFormat.bytesPerSample
        channels = format.channels
        values = stride(from: 0, to: bytes.count - width + 1, by: width).map { o in
            switch width {
            case 2: Int32(Int16(bitPattern: UInt16(bytes[o]) | UInt16(bytes[o + 1]) << 8))
            case 3: Int32(bytes[o]) | Int32(bytes[o + 1]) << 8 | Int32(Int8(bitPattern: bytes[o + 2])) << 16
            default: Int32(bitPattern: UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24)
            }
        }
    }

    /// Whether `frame` looks like `other`'s frame faded: each sample zero, or of the same
    /// sign and no larger.
    func fadeOf(_ other: Samples, _ frame: Int, _ otherFrame: Int) -> Bool {
        guard otherFrame >= 0, otherFrame < other.frames, !silent(frame) else { return false }
        return (0..<channels).allSatisfy { c in
            let r = values[frame * channels + c], e = other.values[otherFrame * channels + c]
            return r == 0 || ((r > 0) == (e > 0) && abs(r) <= abs(e) + 1)
        }
    }

    func silent(_ frame: Int) -> Bool { (0..<channels).allSatisfy { values[frame * channels + $0] == 0 } }

    func equal(_ frame: Int, _ other: Samples, _ otherFrame: Int) -> Bool {
        guard otherFrame >= 0, otherFrame < other.frames else { return false }
        return (0..<channels).allSatisfy { values[frame * channels + $0] == other.values[otherFrame * channels + $0] }
    }

    /// A hash of `frames` frames from `position`, the same wherever the same samples occur.
    func key(at position: Int, frames: Int) -> Int {
        var hasher = Hasher()
        for value in values[position * channels ..< (position + frames) * channels] { hasher.combine(value) }
        return hasher.finalize()
    }

    /// Where `count` frames of `other` starting at `at` occur in self, exactly, by a scan.
    func find(_ other: Samples, at: Int, count: Int) -> Int? {
        guard count > 0 else { return nil }
        var candidate = 0
        while candidate + count <= frames {
            if (0..<count).allSatisfy({ other.equal(at + $0, self, candidate + $0) }) { return candidate }
            candidate += 1
        }
        return nil
    }
}

/// Where runs of frames occur in a reference, looked up by a hash of their first few
/// frames. A probe that slides through audio the reference does not hold (what a device
/// sends after a stop) then costs a lookup per frame, not a pass over the whole
/// reference: under the guest's emulation that pass took seconds per scenario.
struct FrameIndex {
    static let keyFrames = 4
    let samples: Samples
    /// The first position of each key, and from each position the next with its key:
    /// chains in increasing order, so a lookup finds the earliest match as a scan would.
    private let first: [Int: Int32]
    private let next: [Int32]

    init(_ samples: Samples) {
        self.samples = samples
        let positions = max(0, samples.frames - Self.keyFrames + 1)
        var first = [Int: Int32](minimumCapacity: positions)
        var next = [Int32](repeating: -1, count: positions)
        for position in stride(from: positions - 1, through: 0, by: -1) {
            let key = samples.key(at: position, frames: Self.keyFrames)
            if let later = first[key] { next[position] = later }
            first[key] = Int32(position)
        }
        self.first = first
        self.next = next
    }

    /// Where `count` frames of `other` starting at `at` occur first in the reference, exactly.
    func find(_ other: Samples, at: Int, count: Int) -> Int? {
        guard count >= Self.keyFrames else { return samples.find(other, at: at, count: count) }
        var candidate = first[other.key(at: at, frames: Self.keyFrames)].map(Int.init) ?? -1
        while candidate >= 0 {
            if candidate + count <= samples.frames,
               (0..<count).allSatisfy({ other.equal(at + $0, samples, candidate + $0) }) { return candidate }
            candidate = Int(next[candidate])
        }
        return nil
    }
}
