#if canImport(Glibc)
import Glibc
#endif

/// What an unfinished download leaves, so that the next play of its URL (after a skip, a
/// restart or a power cut) asks only for the bytes still missing. A download records
/// which bytes of its `.part` file have reached the disk in `PART.ranges`, written after
/// `fdatasync`; when it ends unfinished, the pair becomes `NAME.partial` and
/// `NAME.partial.ranges`, one per URL. The next download of that URL takes the pair over,
/// and uses the bytes once the server's first answer shows the same file (the length, and
/// the ETag or the date); another file, or none of these to tell, starts afresh.
///
/// A record is written last and removed first, so a cut at any moment leaves either a
/// whole pair or a file without a record, which is removed at the next start.
extension DownloadCache {
    /// The bytes an unfinished download got, and the file they belong to.
    struct Leftover: Equatable, Sendable {
        var entry: Entry
        var arrived: ByteRanges

        /// Whether a server's answer is about the same file: the same length, and an ETag
        /// or a date that matches (weak ETag marks aside).
        func isSameFile(as head: HTTPResponseHead) -> Bool {
            guard head.totalLength == entry.length else { return false }
            if let old = entry.etag, let new = head.etag { return Download.strong(old) == Download.strong(new) }
            if let old = entry.lastModified, let new = head.lastModified { return old == new }
            return false
        }

        var text: String {
            var text = "url \(entry.url)\nlength \(entry.length)\n"
            if let etag = entry.etag { text += "etag \(etag)\n" }
            if let date = entry.lastModified { text += "last-modified \(date)\n" }
            text += "ranges" + arrived.ranges.map { " \($0.lowerBound)-\($0.upperBound)" }.joined() + "\nend\n"
            return text
        }

        /// Reads a record; nil unless it is whole (its `end` line) and every range lies in
        /// the file.
        init?(text: String) {
            var fields: [String: String] = [:]
            var ended = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line == "end" { ended = true; break }
                guard let space = line.firstIndex(of: " ") else {
                    if line == "ranges" { fields["ranges"] = "" }  // nothing arrived yet
                    continue
                }
                fields[String(line[..<space])] = String(line[line.index(after: space)...])
            }
            guard ended, let url = fields["url"], let length = fields["length"].flatMap({ Int64($0) }), length > 0,
                  let list = fields["ranges"] else { return nil }
            var arrived = ByteRanges()
            for item in list.split(separator: " ") {
                let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
                guard bounds.count == 2, let lower = Int64(bounds[0]), let upper = Int64(bounds[1]),
                      lower >= 0, lower <= upper, upper <= length else { return nil }
                arrived.insert(lower..<upper)
            }
            self.init(entry: Entry(url: url, length: length, etag: fields["etag"], lastModified: fields["last-modified"]), arrived: arrived)
        }

        init(entry: Entry, arrived: ByteRanges) {
            self.entry = entry
            self.arrived = arrived
        }
    }

    private func partialPath(for url: String) -> String { completePath(for: url) + ".partial" }
    private static func record(of file: String) -> String { file + ".ranges" }

    /// Writes `part`'s record. Call after `fdatasync` of `part`: it claims only bytes on
    /// the disk.
    func record(_ leftover: Leftover, of part: String) {
        try? AtomicFile.replace(Self.record(of: part), with: Array(leftover.text.utf8), durable: false)
    }

    /// Removes `part`'s record: its bytes are no longer those it names.
    func forgetRecord(of part: String) {
        _ = FilePath.withCString(Self.record(of: part)) { unlink($0) }
    }

    /// Takes over what an earlier download of `url` left, moving its file to `part`
    /// (which the caller then writes its record for). Nil when there is nothing to take.
    func claimLeftover(for url: String, into part: String) -> Leftover? {
        underWay.leftoverLock.withLock {
            let partial = partialPath(for: url)
            guard let leftover = Self.readRecord(of: partial), leftover.entry.url == url else { return nil }
            let moved = FilePath.withCString(partial) { old in FilePath.withCString(part) { rename(old, $0) } } == 0
            forgetRecord(of: partial)
            return moved ? leftover : nil
        }
    }

    /// Keeps an unfinished download's `part` (and its record) for the next play of its
    /// URL, unless what is already kept for it has more bytes.
    func keepLeftover(_ part: String) {
        underWay.leftoverLock.withLock {
            guard let ours = Self.readRecord(of: part) else {
                removePair(part)
                return
            }
            let partial = partialPath(for: ours.entry.url)
            if let kept = Self.readRecord(of: partial), kept.arrived.byteCount >= ours.arrived.byteCount {
                removePair(part)
                return
            }
            movePair(part, to: partial)
        }
    }

    /// When the cache is set up: what a previous run left unfinished becomes one leftover
    /// per URL (the one with the most bytes); files without a whole record, and the rest,
    /// are removed. Downloads under way in this process are left alone.
    public func tidyLeftovers() {
        underWay.leftoverLock.withLock {
            let folder = settings.folder
            guard let dir = FilePath.withCString(folder, { opendir($0) }) else { return }
            var names: [String] = []
            while let entry = readdir(dir) {
                names.append(withUnsafeBytes(of: entry.pointee.d_name) { FilePath.decode($0.prefix { $0 != 0 }) })
            }
            closedir(dir)
            names.removeAll { name in
                let path = "\(folder)/\(name)"
                return isInUse(path) || (name.hasSuffix(".ranges") && isInUse(String(path.dropLast(".ranges".count))))
            }
            // The best pair for each URL's name: a kept one, or a download's that ended with the run.
            var best: [String: (file: String, bytes: Int64)] = [:]
            for name in names where name.hasSuffix(".part") || name.hasSuffix(".partial") {
                let file = "\(folder)/\(name)"
                guard let leftover = Self.readRecord(of: file), name.hasPrefix(self.name(for: leftover.entry.url)) else { continue }
                let key = partialPath(for: leftover.entry.url)
                if let other = best[key], other.bytes >= leftover.arrived.byteCount { continue }
                best[key] = (file, leftover.arrived.byteCount)
            }
            for (partial, pair) in best where pair.file != partial {
                movePair(pair.file, to: partial)
            }
            let kept = Set(best.keys)
            for name in names {
                let path = "\(folder)/\(name)"
                if name.hasSuffix(".part") || name.hasSuffix(".partial") {
                    if !kept.contains(path) { removePair(path) }
                } else if name.hasSuffix(".ranges") {
                    if !kept.contains(String(path.dropLast(".ranges".count))) { _ = FilePath.withCString(path) { unlink($0) } }
                }
            }
            // Records and `.meta` files cut while they were written.
            AtomicFile.removeLeftovers(in: folder) { $0.hasSuffix(".ranges") || $0.hasSuffix(".meta") }
        }
        evict()  // a smaller cache_mb than the last run's
    }

    /// Removes a kept leftover (to make room), never halfway through its taking or keeping.
    func removeLeftover(_ partial: String) {
        underWay.leftoverLock.withLock { removePair(partial) }
    }

    /// The record first, so a file never outlives it with another's record beside it.
    func removePair(_ file: String) {
        forgetRecord(of: file)
        _ = FilePath.withCString(file) { unlink($0) }
    }

    /// Replaces `destination`'s pair with `file`'s: the old record goes first and the new
    /// one comes last.
    private func movePair(_ file: String, to destination: String) {
        forgetRecord(of: destination)
        let moved = FilePath.withCString(file) { old in FilePath.withCString(destination) { rename(old, $0) } } == 0
        let recorded = moved && FilePath.withCString(Self.record(of: file)) { old in
            FilePath.withCString(Self.record(of: destination)) { rename(old, $0) }
        } == 0
        if !recorded { removePair(moved ? destination : file) }
    }

    private static func readRecord(of file: String) -> Leftover? {
        guard let bytes = try? AtomicFile.contents(of: record(of: file), limit: 1 << 20) else { return nil }
        guard let leftover = Leftover(text: String(decoding: bytes, as: UTF8.self)) else { return nil }
        // The file has its whole length from the first answer on (it is allocated then).
        var st = stat()
        guard FilePath.withCString(file, { stat($0, &st) }) == 0, Int64(st.st_size) == leftover.entry.length else { return nil }
        return leftover
    }
}
