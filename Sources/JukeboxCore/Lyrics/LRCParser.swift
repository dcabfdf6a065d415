/// LRC lyrics, parsed by these rules:
/// - time tags `[mm:ss]`, `[mm:ss.x]`, `[mm:ss.xx]`, `[mm:ss.xxx]`, `[mm:ss:xx]` (hundredths);
///   minutes may exceed 59; several leading tags give one line each;
/// - lines sort by time, equal times keep file order;
/// - `[offset:±N]` ms: display time = tag time − offset, never below 0; an offset beyond
///   a day cannot be meant and is ignored (it would overflow the arithmetic);
/// - `[ti:]`, `[ar:]`… (a letters-only key) are metadata, not lines;
/// - enhanced LRC word times `<mm:ss.xx>` give per-word times and are removed from the text;
/// - a timed line with empty text is kept (it clears the display);
/// - lines without a valid time tag are ignored; no time tags at all means unsynced text.
///
/// It works on UTF-8 bytes, not Characters, and every step is linear in the input: a
/// 6,000-line file must parse in milliseconds and a hostile 4 MiB one in well under a second.
public enum LRCParser {
    /// Lyrics files larger than this are refused rather than read into memory.
    public static let maximumFileSize = 4 * 1024 * 1024
    /// Largest `[offset:]` honoured, in ms (a day).
    public static let maximumOffsetMs = 86_400_000
    /// Input bytes between two deadline checks.
    static let checkpointBytes = 64 * 1024

    /// Throws `LyricsError`, or `LyricsGaveUp` once `deadline` has passed.
    public static func parse(file path: String, source: Lyrics.Source, deadline: LyricsDeadline? = nil) throws -> Lyrics {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.contents(of: path, limit: maximumFileSize)
        } catch let error as MediaError {
            throw LyricsError(path: path, reason: error.reason)
        }
        guard !bytes.isEmpty else { throw LyricsError(path: path, reason: "empty file") }
        let text: String
        do {
            text = try TextDecoding.decode(bytes).text
        } catch let failure as TextDecoding.Failure {
            throw LyricsError(path: path, reason: failure.reason)
        }
        guard let deadline else { return parse(text: text, source: source) }
        return try parse(text: text, source: source, deadline: deadline)
    }

    public static func parse(text: String, source: Lyrics.Source) -> Lyrics {
        parse(text: text, source: source, checkpoint: { () throws(Never) in })
    }

    public static func parse(text: String, source: Lyrics.Source, deadline: LyricsDeadline) throws(LyricsGaveUp) -> Lyrics {
        try parse(text: text, source: source, checkpoint: { () throws(LyricsGaveUp) in try deadline.check() })
    }

    /// `checkpoint` runs every `checkpointBytes` of input and may throw to abandon the work.
    static func parse<Failure: Error>(text: String, source: Lyrics.Source,
                                      checkpoint: () throws(Failure) -> Void) throws(Failure) -> Lyrics {
        var timed: [(time: Int, order: Int, line: LyricLine)] = []
        var plain: [String] = []
        var metadata: [String: String] = [:]
        var offset = 0

        var utf8 = text.utf8.makeIterator()
        var line: [UInt8] = []
        line.reserveCapacity(256)
        var finished = false
        var bytesSinceCheckpoint = 0
        while !finished {
            line.removeAll(keepingCapacity: true)
            while true {
                guard let b = utf8.next() else { finished = true; break }
                if b == UInt8(ascii: "\n") { break }
                line.append(b)
            }
            bytesSinceCheckpoint += line.count + 1
            if bytesSinceCheckpoint >= checkpointBytes {
                bytesSinceCheckpoint = 0
                try checkpoint()
            }
            if finished && line.isEmpty { break }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }

            var i = skipSpaces(line, 0)
            var times: [Int] = []
            var sawMetadata = false
            while i < line.count, line[i] == UInt8(ascii: "[") {
                guard let close = line[i...].firstIndex(of: UInt8(ascii: "]")) else { break }
                let content = line[(i + 1)..<close]
                if let t = LRCTime.parse(content) {
                    times.append(t)
                } else if times.isEmpty, let (key, value) = metadataTag(content) {
                    // Int() accepts a leading "+" and gives nil past Int's range.
                    if key == "offset", let ms = Int(value), ms.magnitude <= UInt(maximumOffsetMs) { offset = ms }
                    metadata[key] = value
                    sawMetadata = true
                } else {
                    break
                }
                i = skipSpaces(line, close + 1)
            }
            let rest = line[i...]
            if times.isEmpty {
                if !sawMetadata { plain.append(String(decoding: rest, as: UTF8.self).trimmingSpaces) }
                continue
            }
            let (lineText, words, end) = splitWords(rest)
            for t in times {
                timed.append((t, timed.count, LyricLine(timeMs: t, text: lineText, words: words, endMs: end)))
            }
        }

        guard !timed.isEmpty else {
            // Dropped as slices: removeFirst in a loop is quadratic on many blank lines.
            let first = plain.firstIndex { !$0.isEmpty } ?? plain.endIndex
            let end = (plain.lastIndex { !$0.isEmpty }).map { $0 + 1 } ?? first
            return Lyrics(source: source, synced: false, offsetMs: offset, metadata: metadata,
                          lines: plain[first..<end].map { LyricLine(timeMs: nil, text: $0, words: []) })
        }
        timed.sort { $0.time != $1.time ? $0.time < $1.time : $0.order < $1.order }
        let lines = timed.map { entry -> LyricLine in
            var line = entry.line
            line.timeMs = max(0, entry.time - offset)
            line.words = line.words.map { LyricWord(timeMs: max(0, $0.timeMs - offset), text: $0.text) }
            line.endMs = line.endMs.map { max(0, $0 - offset) }
            return line
        }
        return Lyrics(source: source, synced: true, offsetMs: offset, metadata: metadata, lines: lines)
    }

    private static func skipSpaces(_ line: [UInt8], _ start: Int) -> Int {
        var i = start
        while i < line.count, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
        return i
    }

    /// `key:value` where the key is letters only (`ti`, `ar`, `offset`, `length`…).
    private static func metadataTag(_ content: ArraySlice<UInt8>) -> (String, String)? {
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")), colon > content.startIndex else { return nil }
        let key = content[content.startIndex..<colon]
        guard key.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else { return nil }
        let value = String(decoding: content[(colon + 1)...], as: UTF8.self).trimmingSpaces
        return (String(decoding: key, as: UTF8.self).lowercased(), value)
    }

    /// Removes `<mm:ss.xx>` word tags; each tag starts a word that runs to the next tag.
    /// Text before the first tag is kept in the line text but has no word time. The next
    /// `>` is searched for once per position, not once per `<`: a line of 4 million `<`
    /// was quadratic.
    private static func splitWords(_ rest: ArraySlice<UInt8>) -> (String, [LyricWord], end: Int?) {
        guard rest.contains(UInt8(ascii: "<")) else {
            return (String(decoding: rest, as: UTF8.self).trimmingSpaces, [], nil)
        }
        var plain: [UInt8] = []
        var words: [LyricWord] = []
        var current: (time: Int, bytes: [UInt8])?
        var i = rest.startIndex
        var nextClose: Int? = rest.startIndex - 1  // before `i`: not searched yet
        while i < rest.endIndex {
            if rest[i] == UInt8(ascii: "<"), let searched = nextClose, searched < i {
                nextClose = rest[i...].firstIndex(of: UInt8(ascii: ">"))
            }
            if rest[i] == UInt8(ascii: "<"), let close = nextClose,
               let t = LRCTime.parse(rest[(i + 1)..<close]) {
                if let word = current { words.append(LyricWord(timeMs: word.time, text: String(decoding: word.bytes, as: UTF8.self))) }
                current = (t, [])
                i = close + 1
                continue
            }
            plain.append(rest[i])
            current?.bytes.append(rest[i])
            i += 1
        }
        if let word = current { words.append(LyricWord(timeMs: word.time, text: String(decoding: word.bytes, as: UTF8.self))) }
        // A trailing tag with no text marks the end of the last word; it is not a word.
        let end = words.last.flatMap { $0.text.trimmingSpaces.isEmpty && words.count > 1 ? $0.timeMs : nil }
        words.removeAll { $0.text.isEmpty }
        return (String(decoding: plain, as: UTF8.self).trimmingSpaces, words, end)
    }
}

/// LRC time stamps: `mm:ss`, `mm:ss.x`, `mm:ss.xx`, `mm:ss.xxx` and `mm:ss:xx`.
public enum LRCTime {
    public static func parse(_ s: ArraySlice<UInt8>) -> Int? {
        var i = s.startIndex
        func digits(max: Int) -> (value: Int, count: Int) {
            var value = 0
            var count = 0
            while i < s.endIndex, count < max, s[i] >= 0x30, s[i] <= 0x39 {
                value = value * 10 + Int(s[i] - 0x30)
                count += 1
                i += 1
            }
            return (value, count)
        }
        let minutes = digits(max: 6)
        guard minutes.count > 0, i < s.endIndex, s[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        let seconds = digits(max: 2)
        guard seconds.count > 0, seconds.value < 60 else { return nil }
        var ms = 0
        if i < s.endIndex, s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ":") {
            i += 1
            let fraction = digits(max: 3)
            guard fraction.count > 0 else { return nil }
            ms = fraction.count == 1 ? fraction.value * 100 : fraction.count == 2 ? fraction.value * 10 : fraction.value
        }
        guard i == s.endIndex else { return nil }
        return (minutes.value * 60 + seconds.value) * 1000 + ms
    }

    public static func format(_ ms: Int) -> String {
        let minutes = ms / 60_000
        let seconds = (ms / 1000) % 60
        let millis = ms % 1000
        return "\(String(minutes).leftPadded(to: 2)):\(String(seconds).leftPadded(to: 2)).\(String(millis).leftPadded(to: 3))"
    }
}
