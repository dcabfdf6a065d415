#if canImport(Glibc)
import Glibc
#endif

/// Where downloaded tracks are kept, so a track heard once plays again with no network:
/// one file per URL, named by a hash of it. While it downloads it is `NAME.PID-N.part`
/// (one per download: the same URL may be playing and pre-opened as the next track); once
/// every byte has arrived and the length checks, it is renamed to `NAME`, and `NAME.meta`
/// records the URL, the length and the validators (ETag, Last-Modified). A download that
/// ends unfinished leaves `NAME.partial` for the next one (DownloadLeftovers.swift). The
/// folder is the index, so it survives restarts. The least recently played copies and
/// leftovers go first when the folder grows past its cap.
public final class DownloadCache: @unchecked Sendable {
    public struct Settings: Sendable, Equatable {
        /// `[network] cache_dir`; empty: no cache (downloads go to a temporary file).
        public var folder: String
        /// `[network] cache_mb`, in bytes.
        public var capacity: Int64

        public init(folder: String = "/var/cache/jukebox", capacity: Int64 = 512 << 20) {
            self.folder = folder
            self.capacity = capacity
        }
    }

    /// What is known about a complete copy.
    struct Entry: Equatable, Sendable {
        var url: String
        var length: Int64
        var etag: String?
        var lastModified: String?
    }

    /// What the downloads of one player hold in the folder. Every cache one
    /// `NetworkPlayback` makes shares it: a reload that changes the cap makes a new cache
    /// over the same folder, whose tidying must leave the old one's downloads alone.
    final class UnderWay: Sendable {
        /// A serial for each download's `.part` name, and the names being filled now.
        fileprivate let parts = ConditionLocked<(serial: Int, inUse: Set<String>)>((0, []))
        /// Claims, keeps and tidies of leftovers run one at a time: two downloads of one
        /// URL may end together.
        let leftoverLock = ConditionLock()
    }

    public let settings: Settings
    let underWay: UnderWay
    /// Evictions run one at a time.
    private let lock = ConditionLock()

    public convenience init(settings: Settings) {
        self.init(settings: settings, underWay: UnderWay())
    }

    init(settings: Settings, underWay: UnderWay) {
        self.settings = settings
        self.underWay = underWay
    }

    func name(for url: String) -> String {
        let hash = FNV1a.hash(url.utf8)
        return String(hash, radix: 16).leftPadded(to: 16, with: "0")
    }

    func completePath(for url: String) -> String { "\(settings.folder)/\(name(for: url))" }
    /// A `.part` file of its own for one download of `url`, in use until `partEnded`.
    func newPartPath(for url: String) -> String {
        underWay.parts.withLock { downloads in
            downloads.serial += 1
            let part = "\(completePath(for: url)).\(getpid())-\(downloads.serial).part"
            downloads.inUse.insert(part)
            return part
        }
    }

    func partEnded(_ part: String) { underWay.parts.withLock { _ = $0.inUse.remove(part) } }

    /// Whether a download of this player fills `part` now (tidying leaves it alone).
    func isInUse(_ part: String) -> Bool { underWay.parts.withLock { $0.inUse.contains(part) } }
    private func metaPath(for url: String) -> String { completePath(for: url) + ".meta" }

    /// The complete copy of `url`, if there is one whose length still checks.
    func complete(_ url: String) -> (path: String, entry: Entry)? {
        guard let entry = readEntry(url) else { return nil }
        let path = completePath(for: url)
        var st = stat()
        guard FilePath.withCString(path, { stat($0, &st) }) == 0, Int64(st.st_size) == entry.length else { return nil }
        touch(path)
        return (path, entry)
    }

    /// Makes the folder; false (and the reason) when it cannot be written.
    func prepare() -> String? {
        let folder = settings.folder
        guard !folder.isEmpty else { return "no cache folder is set" }
        _ = FilePath.withCString(folder) { mkdir($0, 0o755) }
        guard FilePath.withCString(folder, { access($0, W_OK) }) == 0 else {
            return "\(folder) cannot be written (\(Errno(errno)))"
        }
        return nil
    }

    /// Turns a finished `.part` into the complete copy, then keeps the folder under its cap.
    func finish(_ url: String, entry: Entry, from part: String) throws(AtomicFile.Failure) {
        let path = completePath(for: url)
        forgetRecord(of: part)  // complete: nothing is left over
        try AtomicFile.replace(metaPath(for: url), with: Array(Self.format(entry).utf8), durable: false)
        if let fd = try? systemCall({ FilePath.withCString(part) { open($0, O_RDONLY | O_CLOEXEC) } }) {
            _ = fsync(fd)
            close(fd)
        }
        do {
            try systemCall { FilePath.withCString(part) { old in FilePath.withCString(path) { rename(old, $0) } } }
        } catch {
            throw AtomicFile.Failure(path: path, step: "rename", errno: error)
        }
        evict(keeping: path)
    }

    /// Forgets a copy (a stale one the server changed, or a broken one).
    func remove(_ url: String) {
        for path in [completePath(for: url), metaPath(for: url)] {
            _ = FilePath.withCString(path) { unlink($0) }
        }
    }

    /// Marks a copy as just used: eviction goes by modification time.
    private func touch(_ path: String) {
        _ = FilePath.withCString(path) { utimensat(AT_FDCWD, $0, nil, 0) }
    }

    /// Removes the least recently used copies and leftovers until the folder is under its
    /// cap; `keeping`, and downloads under way, stay whatever their size.
    func evict(keeping: String? = nil) {
        lock.withLock {
            var files: [(path: String, size: Int64, used: Int)] = []
            var total: Int64 = 0
            guard let dir = FilePath.withCString(settings.folder, { opendir($0) }) else { return }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { FilePath.decode($0.prefix { $0 != 0 }) }
                let partial = name.hasSuffix(".partial")
                guard name.count == 16 || partial || name.hasSuffix(".part") else { continue }
                var st = stat()
                let path = "\(settings.folder)/\(name)"
                guard FilePath.withCString(path, { stat($0, &st) }) == 0 else { continue }
                total += Int64(st.st_size)
                if name.count == 16 || partial { files.append((path, Int64(st.st_size), st.st_mtim.tv_sec)) }
            }
            closedir(dir)
            for file in files.sorted(by: { $0.used < $1.used }) where total > settings.capacity && file.path != keeping {
                if file.path.hasSuffix(".partial") {
                    removeLeftover(file.path)
                } else {
                    for doomed in [file.path, file.path + ".meta"] { _ = FilePath.withCString(doomed) { unlink($0) } }
                }
                total -= file.size
            }
        }
    }

    private func readEntry(_ url: String) -> Entry? {
        guard let bytes = try? AtomicFile.contents(of: metaPath(for: url), limit: 64 << 10) else { return nil }
        var fields: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            fields[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        // A hash shared by two URLs: the copy is the other one's.
        guard fields["url"] == url, let length = fields["length"].flatMap({ Int64($0) }) else { return nil }
        return Entry(url: url, length: length, etag: fields["etag"], lastModified: fields["last-modified"])
    }

    private static func format(_ entry: Entry) -> String {
        var text = "url \(entry.url)\nlength \(entry.length)\n"
        if let etag = entry.etag { text += "etag \(etag)\n" }
        if let date = entry.lastModified { text += "last-modified \(date)\n" }
        return text
    }
}
