#if canImport(Glibc)
import Glibc
#endif
import TOMLKit

/// The state file on disk: TOML an admin can read, ending in a checksum line, written so
/// that a power cut at any moment leaves either the old file or the new one.
///
/// Each write goes to a temporary file in the same folder, is flushed to the card, and is
/// renamed over the state; the state it replaces becomes `PATH.prev`, the copy loading
/// falls back on when the newest is broken.
public struct StateFile: Sendable {
    public let path: String
    public var previousPath: String { path + ".prev" }
    /// Far beyond a real state (a shuffle order of 10,000 tracks is about 60 KB).
    static let sizeLimit = 8 << 20

    public init(path: String) { self.path = path }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Saving failed at `step` ("create", "write", "flush", "rename").
        case cannotWrite(path: String, step: String, Errno)
        /// The file is there but unusable: truncated, corrupt, foreign or too new.
        case broken(path: String, reason: String)

        public var description: String {
            switch self {
            case .cannotWrite(let path, let step, let errno): "\(path): cannot \(step): \(errno)"
            case .broken(let path, let reason): "\(path): \(reason)"
            }
        }
    }

    /// What loading found: the state (from the newest good copy), and what was wrong with
    /// any copy passed over on the way.
    public struct Loaded: Sendable {
        public var state: SavedState?
        public var problems: [Problem]
        public var fromPrevious: Bool
    }

    public func load() -> Loaded {
        var problems: [Problem] = []
        for (candidate, isPrevious) in [(path, false), (previousPath, true)] {
            do {
                guard let state = try Self.read(candidate) else { continue }
                return Loaded(state: state, problems: problems, fromPrevious: isPrevious)
            } catch {
                problems.append(error)
            }
        }
        return Loaded(state: nil, problems: problems, fromPrevious: false)
    }

    /// The state at `path`; nil when there is no file.
    static func read(_ path: String) throws(Problem) -> SavedState? {
        let contents: [UInt8]?
        do {
            contents = try AtomicFile.contents(of: path, limit: sizeLimit)
        } catch {
            throw .broken(path: path, reason: error.reason)
        }
        guard let bytes = contents else { return nil }
        return try decode(bytes, path: path)
    }

    static let checksumPrefix = "# checksum "

    public static func encode(_ state: SavedState) throws -> [UInt8] {
        // Not TOMLKit's encoder, which keeps every node it makes (TOMLTextEncoder.swift).
        let body = try TOMLTextEncoder().encode(state)
        var bytes = Array("# Jukebox state: where playback was. Written by the jukebox; edits are ignored.\n".utf8)
        bytes += body.utf8
        if bytes.last != 0x0a { bytes.append(0x0a) }
        bytes += "\(checksumPrefix)\(String(FNV1a.hash(bytes), radix: 16))\n".utf8
        return bytes
    }

    public static func decode(_ bytes: [UInt8], path: String) throws(Problem) -> SavedState {
        // The checksum line is the last one: a file cut short by a lost write fails here.
        let withoutFinalNewline = bytes.last == 0x0a ? bytes.dropLast() : bytes[...]
        guard let lastLineStart = withoutFinalNewline.lastIndex(of: 0x0a).map({ $0 + 1 }) else {
            throw .broken(path: path, reason: bytes.isEmpty ? "empty" : "no checksum line (cut short?)")
        }
        let lastLine = String(decoding: withoutFinalNewline[lastLineStart...], as: UTF8.self)
        guard lastLine.hasPrefix(checksumPrefix), let sum = UInt64(lastLine.dropFirst(checksumPrefix.count), radix: 16) else {
            throw .broken(path: path, reason: "no checksum line (cut short?)")
        }
        guard sum == FNV1a.hash(bytes[..<lastLineStart]) else {
            throw .broken(path: path, reason: "checksum does not match (damaged)")
        }
        let text = String(decoding: bytes[..<lastLineStart], as: UTF8.self)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch {
            throw .broken(path: path, reason: "not TOML: \(error)")
        }
        guard table["format"]?.string == SavedState.formatName else {
            throw .broken(path: path, reason: "not a jukebox state file")
        }
        guard let version = table["version"]?.int, version <= SavedState.currentVersion else {
            throw .broken(path: path, reason: "written by a newer jukebox (format version \(table["version"]?.int ?? -1))")
        }
        do {
            return try TOMLDecoder().decode(SavedState.self, from: table)
        } catch {
            throw .broken(path: path, reason: "unreadable: \(error)")
        }
    }

    /// Replaces the state with `state`: temporary file, flush, keep the old one as
    /// `.prev`, rename, flush the folder.
    public func write(_ state: SavedState) throws(Problem) {
        let bytes: [UInt8]
        do {
            bytes = try Self.encode(state)
        } catch {
            throw .broken(path: path, reason: "cannot encode: \(error)")
        }
        do {
            try AtomicFile.replace(path, with: bytes, keepingPrevious: previousPath)
        } catch {
            throw .cannotWrite(path: error.path, step: error.step, error.errno)
        }
    }

    /// Creates the folder the state lives in, if it can (a box run by hand as root).
    public func makeFolder() throws(Problem) {
        let folder = Self.folder(of: path)
        do {
            try systemCall { FilePath.withCString(folder) { mkdir($0, 0o755) } }
        } catch where error == .exists {
        } catch {
            throw .cannotWrite(path: folder, step: "create the folder", error)
        }
    }

    static func folder(of path: String) -> String { AtomicFile.folder(of: path) }
}
