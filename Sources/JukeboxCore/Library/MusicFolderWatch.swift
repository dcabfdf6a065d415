import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Waits for music to arrive in a folder that has none yet: a `music_dir` that does not
/// exist at start (a USB stick mounted after boot) or that is empty (a mount point, a
/// folder being filled over the network). inotify cannot see a mount appear on an existing
/// folder, so the folder is polled: every `interval` its tree's `FolderSignature` is taken,
/// and once it has changed and then held still for one interval (a copy in progress keeps
/// changing it), `onChange` runs on the watch's queue. The watch ends when `onChange`
/// returns true (music was found) or on `stop()`.
public final class MusicFolderWatch: @unchecked Sendable {
    public static let defaultInterval = 2.0

    private let path: String
    private let interval: Double
    private let queue = DispatchQueue(label: "jukebox.music-folder-watch", qos: .utility)
    private var timer: DispatchSourceTimer?
    /// Touched on `queue` only.
    private var lastScanned: FolderSignature?
    private var lastSeen: FolderSignature?

    public init(path: String, interval: Double = MusicFolderWatch.defaultInterval) {
        self.path = path
        self.interval = interval
    }

    /// `scanned` is the folder as it was when it was last scanned (nil: missing then).
    public func start(scanned: FolderSignature?, onChange: @escaping @Sendable () -> Bool) {
        queue.async { [self] in
            lastScanned = scanned
            lastSeen = scanned
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(200))
            timer.setEventHandler { [weak self] in self?.tick(onChange) }
            self.timer = timer
            timer.resume()
        }
    }

    public func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
    }

    private func tick(_ onChange: () -> Bool) {
        let now = FolderSignature(of: path)
        defer { lastSeen = now }
        guard let now, now == lastSeen, now != lastScanned else { return }
        lastScanned = now
        if onChange() {
            timer?.cancel()
            timer = nil
        }
    }
}

/// A digest of a folder tree's names, sizes and modification times: cheap to take (stat
/// only, no file is read), and different whenever a file or folder is added, removed,
/// grown or touched, or another file system is mounted on the folder. Symbolic links are
/// not followed; at most `entryLimit` entries are looked at, so a huge tree costs a
/// bounded amount per look.
public struct FolderSignature: Equatable, Sendable {
    static let entryLimit = 20_000

    private let entries: Int
    private let digest: Int

    /// nil when `path` is not a folder (yet).
    public init?(of path: String) {
        var st = stat()
        guard (try? systemCall({ FilePath.withCString(path) { stat($0, &st) } })) != nil,
              (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        var hasher = Hasher()
        var entries = 0
        func add(_ st: stat) {
            entries += 1
            hasher.combine(UInt64(st.st_dev))
            hasher.combine(UInt64(st.st_ino))
            hasher.combine(Int64(st.st_size))
            hasher.combine(Int64(st.st_mtim.tv_sec))
            hasher.combine(Int64(st.st_mtim.tv_nsec))
        }
        add(st)
        var folders = [(path: path, depth: 0)]
        while let (folder, depth) = folders.popLast(), entries < Self.entryLimit {
            guard let dir = try? systemCall({ FilePath.withCString(folder) { opendir($0) } }) else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir), entries < Self.entryLimit {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { FilePath.decode($0.prefix { $0 != 0 }) }
                if name.hasPrefix(".") { continue }  // as the scan: ., .., hidden
                let child = folder + "/" + name
                guard (try? systemCall({ FilePath.withCString(child) { lstat($0, &st) } })) != nil else { continue }
                hasher.combine(name)
                add(st)
                if (st.st_mode & S_IFMT) == S_IFDIR, depth + 1 < LibraryWalk.maximumDepth {
                    folders.append((child, depth + 1))
                }
            }
        }
        self.entries = entries
        digest = hasher.finalize()
    }
}
