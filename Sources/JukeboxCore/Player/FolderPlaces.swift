/// Folders that keep their own place, as audiobooks need: going back to one continues at
/// the track and frame where it was left, even after other music played in between. In
/// such a folder, a file of chapters (`book.m4b/chapter003`) is a book of its own and
/// keeps its own place.
///
/// Pure bookkeeping; the player asks it where to start and tells it what was left.
public struct FolderPlaces: Sendable, Equatable {
    public struct Place: Sendable, Equatable, Codable {
        /// The remembered folder, as configured and made absolute, or a file of chapters in it.
        public var folder: String
        public var path: String
        public var frame: Int64
        /// The speed it was listened at (nil in a file from before speeds were kept).
        public var speed: Double?
    }

    /// Absolute folders, without a trailing slash.
    public let folders: [String]
    public private(set) var places: [String: Place] = [:]

    public init(folders: [String]) {
        self.folders = folders.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    /// The remembered folder holding `path` (the innermost one, when they nest), or the
    /// file of chapters in it that `path` is a chapter of.
    public func folder(of path: String) -> String? {
        guard let folder = folders.filter({ path.hasPrefix($0 + "/") }).max(by: { $0.count < $1.count }) else { return nil }
        if let chapter = ChapterEntry(path), chapter.file.hasPrefix(folder + "/") { return chapter.file }
        return folder
    }

    /// Where to start instead of the beginning of `target`: the place remembered in its
    /// folder, when playback comes into that folder from outside it.
    public func place(enteringAt target: String, from current: String?) -> Place? {
        guard let folder = folder(of: target), current.flatMap(folder(of:)) != folder else { return nil }
        return places[folder]
    }

    /// Playback left `path` (or is saving) at `frame`, playing at `speed`.
    public mutating func left(_ path: String, at frame: Int64, speed: Double = 1) {
        guard let folder = folder(of: path) else { return }
        places[folder] = Place(folder: folder, path: path, frame: max(0, frame), speed: speed)
    }

    /// The speed to play `path` at when playback comes to it from `current`: its folder's
    /// own when it moves into one that keeps its place (`otherwise` until one was kept),
    /// `otherwise` when it moves out of one; nil when it stays in or out of them.
    public func speed(enteringAt path: String, from current: String?, otherwise: Double) -> Double? {
        let folder = folder(of: path), left = current.flatMap(folder(of:))
        guard folder != left else { return nil }
        return folder.flatMap { places[$0]?.speed } ?? otherwise
    }

    /// The folder's last track ended by itself and playback went on elsewhere: the book is
    /// finished, and coming back starts it again from the top.
    public mutating func finished(_ path: String, nextPath: String?) {
        guard let folder = folder(of: path), nextPath.flatMap(folder(of:)) != folder else { return }
        places[folder] = nil
    }

    /// Places saved before a restart, for folders still configured.
    public mutating func restore(_ saved: [Place]) {
        for place in saved where folder(of: place.path) == place.folder {
            places[place.folder] = place
        }
    }

    public var saved: [Place] { places.values.sorted { $0.folder < $1.folder } }
}
