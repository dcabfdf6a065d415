#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file so that a power cut at any moment leaves either the old contents or the
/// new: a temporary file in the same folder, written, flushed, renamed over the file, and
/// the folder flushed. Every file the box replaces goes this way (the state, the queue,
/// the library index, stored playlists, the download cache's records, the screen image).
///
/// The temporary file is made fresh, never opened through whatever is already there: a
/// link planted under its name (a playlists folder others can write) is refused, not
/// followed. Its name is `.jukebox-PID-N.new`, short whatever the final name (a name the
/// folder takes always has room for it), and a write that fails removes it, so a full disk
/// is not left full. What a killed run left behind goes at the next start
/// (`removeLeftovers`).
enum AtomicFile {
    /// A step that failed ("create", "write", "flush", "rename") and why.
    struct Failure: Error, Sendable {
        var path: String
        var step: String
        var errno: Errno
    }

    /// Writes `bytes` as `path`. With `keepingPrevious`, the file it replaces stays as that
    /// path (a cut between the two renames leaves only the previous copy). Not `durable`:
    /// readers still never see half a file, but nothing waits for the disk (a screen image
    /// rewritten twice a second must not wear an SD card).
    static func replace(_ path: String, with bytes: [UInt8], keepingPrevious previous: String? = nil,
                        durable: Bool = true) throws(Failure) {
        try replace(path, keepingPrevious: previous, durable: durable) { $0.write(bytes) }
    }

    /// Writes what `fill` gives the writer as `path`, as `replace(_:with:)` does, without
    /// the whole file in memory: a large file (the library index) goes out in pieces.
    /// `mode`: the new file's permissions (a config holding passwords keeps its 0640).
    static func replace(_ path: String, keepingPrevious previous: String? = nil, durable: Bool = true, mode: mode_t? = nil,
                        fill: (inout Writer) -> Void) throws(Failure) {
        let folder = folder(of: path)
        let temporary = beginTemporary(in: folder)
        defer { endTemporary(temporary) }
        let fd: Int32
        do {
            fd = try createFresh(temporary)
        } catch {
            throw Failure(path: temporary, step: "create", errno: error)
        }
        if let mode { fchmod(fd, mode) }
        var writer = Writer(fd: fd)
        fill(&writer)
        writer.flush()
        if let error = writer.error {
            abandon(fd, temporary)
            throw Failure(path: temporary, step: "write", errno: error)
        }
        do {
            if durable { try systemCall { fsync(fd) } }
        } catch {
            abandon(fd, temporary)
            throw Failure(path: temporary, step: "flush", errno: error)
        }
        close(fd)
        if let previous {
            _ = FilePath.withCString(path) { old in FilePath.withCString(previous) { rename(old, $0) } }
        }
        do {
            try systemCall { FilePath.withCString(temporary) { new in FilePath.withCString(path) { rename(new, $0) } } }
        } catch {
            _ = FilePath.withCString(temporary) { unlink($0) }
            throw Failure(path: path, step: "rename", errno: error)
        }
        if durable, let dir = try? systemCall({ FilePath.withCString(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }) {
            _ = try? systemCall { fsync(dir) }
            close(dir)
        }
    }

    /// Creates `path` afresh for writing (`readable` also for reading), with
    /// O_CREAT|O_EXCL|O_NOFOLLOW: whatever was left there (a dead run's file, or a link) is
    /// removed first, and should something appear again in between, the call fails
    /// instead of writing through it. The one way the box makes a file it then fills.
    static func createFresh(_ path: String, readable: Bool = false) throws(Errno) -> Int32 {
        _ = FilePath.withCString(path) { unlink($0) }
        let access = readable ? O_RDWR : O_WRONLY
        return try systemCall { FilePath.withCString(path) { open($0, access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) } }
    }

    private static func abandon(_ fd: Int32, _ temporary: String) {
        close(fd)
        _ = FilePath.withCString(temporary) { unlink($0) }
    }

    /// Buffered writes to the temporary file; the first error stops the rest and is kept.
    struct Writer {
        static let pieceSize = 64 << 10
        fileprivate let fd: Int32
        private var buffer: [UInt8] = []
        fileprivate private(set) var error: Errno?

        fileprivate init(fd: Int32) {
            self.fd = fd
            buffer.reserveCapacity(Self.pieceSize)
        }

        /// Whole, past the buffer, when it is large (a stored playlist made in memory).
        mutating func write(_ bytes: [UInt8]) {
            guard bytes.count >= Self.pieceSize else { return write(bytes[...]) }
            flush()
            guard error == nil else { return }
            do { try writeAll(fd, bytes) } catch { self.error = error }
        }

        mutating func write(_ bytes: some Sequence<UInt8>) {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.pieceSize { flush() }
        }

        fileprivate mutating func flush() {
            if error == nil, !buffer.isEmpty {
                do { try writeAll(fd, buffer) } catch { self.error = error }
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    // MARK: Temporary names

    static let temporaryPrefix = ".jukebox-"
    static let temporarySuffix = ".new"

    /// The temporary files this process is writing now, which tidying leaves alone.
    private static let inFlight = ConditionLocked<(serial: UInt64, paths: Set<String>)>((0, []))

    private static func beginTemporary(in folder: String) -> String {
        inFlight.withLock { state in
            state.serial += 1
            let path = "\(folder)/\(temporaryPrefix)\(getpid())-\(state.serial)\(temporarySuffix)"
            state.paths.insert(path)
            return path
        }
    }

    private static func endTemporary(_ path: String) {
        inFlight.withLock { _ = $0.paths.remove(path) }
    }

    /// Whether `name` is a temporary file of an atomic write: `.jukebox-…new`, or one of
    /// the `.NAME.new` files earlier versions used when `formerly(NAME)` says NAME is a
    /// file the caller writes there.
    static func isTemporary(_ name: String, formerly: (String) -> Bool = { _ in false }) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(temporarySuffix) else { return false }
        if name.hasPrefix(temporaryPrefix) { return true }
        return formerly(String(name.dropFirst().dropLast(temporarySuffix.count)))
    }

    /// Removes the temporary files that writes cut short (a full disk, a kill, a power
    /// cut) left in `folder`, except those this process is writing now. Returns the names
    /// removed.
    @discardableResult
    static func removeLeftovers(in folder: String, formerly: (String) -> Bool = { _ in false }) -> [String] {
        guard !folder.isEmpty, let dir = FilePath.withCString(folder, { opendir($0) }) else { return [] }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { FilePath.decode($0.prefix { $0 != 0 }) }
            if isTemporary(name, formerly: formerly) { names.append(name) }
        }
        closedir(dir)
        let writing = inFlight.current.paths
        return names.filter { name in
            let path = "\(folder)/\(name)"
            return !writing.contains(path) && FilePath.withCString(path, { unlink($0) }) == 0
        }
    }

    /// The whole of a small file written this way; nil when there is none. Throws the
    /// reason it cannot be read, ready to show.
    static func contents(of path: String, limit: Int) throws(Unreadable) -> [UInt8]? {
        var st = stat()
        do {
            try systemCall { FilePath.withCString(path) { stat($0, &st) } }
        } catch where error == .noEntry {
            return nil
        } catch {
            throw Unreadable(reason: "cannot read it: \(error)")
        }
        do {
            return try FileReader.contents(of: path, limit: limit)
        } catch {
            throw Unreadable(reason: (error as? MediaError)?.reason ?? "\(error)")
        }
    }

    struct Unreadable: Error, Sendable {
        var reason: String
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
