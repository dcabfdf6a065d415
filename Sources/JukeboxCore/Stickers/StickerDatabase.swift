#if canImport(Glibc)
import Glibc
#endif

/// MPD's stickers: name=value pairs clients attach to songs (ratings, play counts), kept
/// in an SQLite file beside the state file, in MPD's own table (so MPD's `sticker.sql`
/// can be copied over as it is).
///
/// Every change is one transaction in WAL mode with `synchronous=FULL`: a commit is on
/// the card once it returns (one fsync of the log), and a power cut at any moment leaves
/// the last commit or the one before, never half of one (SQLite checksums each frame of
/// the log and ignores a torn end). WAL rather than a rollback journal: one sync per
/// change instead of three, and the log is only appended to, which wears an SD card least;
/// `journal_size_limit` brings it back to 1 MiB after each checkpoint.
///
/// Bounded: at most 100,000 stickers, names of at most 64 bytes and values of at most
/// 256 (ratings, counts and dates take a few); a change past them is refused (`Failure`),
/// so no client can fill the card. Full to every limit, with 85-byte URIs, the file is
/// 64 MB; 100,000 ratings take 22 MB.
///
/// Not for several threads at once: the control server uses it from its file thread only,
/// so neither the control thread nor any lock waits on the disk, and the audio thread
/// never comes near it.
public final class StickerDatabase: @unchecked Sendable {
    public struct Limits: Sendable, Equatable {
        public var stickers: Int
        public var nameBytes: Int
        public var valueBytes: Int

        public init(stickers: Int = 100_000, nameBytes: Int = 64, valueBytes: Int = 256) {
            self.stickers = stickers
            self.nameBytes = nameBytes
            self.valueBytes = valueBytes
        }
    }

    /// Why a change was refused.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case full(limit: Int)
        case nameTooLong(limit: Int)
        case valueTooLong(limit: Int)
        case database(SQLiteError)

        public var description: String {
            switch self {
            case .full(let limit): "the sticker database is full (at most \(limit) stickers)"
            case .nameTooLong(let limit): "sticker name is longer than \(limit) bytes"
            case .valueTooLong(let limit): "sticker value is longer than \(limit) bytes"
            case .database(let error): "sticker database: \(error)"
            }
        }
    }

    /// How `find` compares values: MPD 0.23's `=`, `<`, `>` compare text (by bytes), MPD
    /// 0.24's `eq`, `lt`, `gt` compare integers, `contains` and `starts_with` text.
    public enum Match: Equatable, Sendable {
        case exists
        case equals(String), lessThan(String), greaterThan(String)
        case equalsInteger(String), lessThanInteger(String), greaterThanInteger(String)
        case contains(String), startsWith(String)

        /// `op` as a client writes it, with its value; nil for an operator MPD does not know.
        public init?(operator op: String, _ value: String) {
            switch op {
            case "=": self = .equals(value)
            case "<": self = .lessThan(value)
            case ">": self = .greaterThan(value)
            case "eq": self = .equalsInteger(value)
            case "lt": self = .lessThanInteger(value)
            case "gt": self = .greaterThanInteger(value)
            case "contains": self = .contains(value)
            case "starts_with": self = .startsWith(value)
            default: return nil
            }
        }

        fileprivate var sql: (condition: String, argument: SQLite.Value?) {
            switch self {
            case .exists: ("", nil)
            case .equals(let v): (" AND value = ?", .text(v))
            case .lessThan(let v): (" AND value < ?", .text(v))
            case .greaterThan(let v): (" AND value > ?", .text(v))
            case .equalsInteger(let v): (" AND CAST(value AS INTEGER) = CAST(? AS INTEGER)", .text(v))
            case .lessThanInteger(let v): (" AND CAST(value AS INTEGER) < CAST(? AS INTEGER)", .text(v))
            case .greaterThanInteger(let v): (" AND CAST(value AS INTEGER) > CAST(? AS INTEGER)", .text(v))
            // SQL's LIKE, as MPD's: ASCII without case, and `%` and `_` in the value match any.
            case .contains(let v): (" AND value LIKE ('%' || ? || '%')", .text(v))
            case .startsWith(let v): (" AND value LIKE (? || '%')", .text(v))
            }
        }
    }

    /// The order of `find`'s answer (MPD 0.24's `sort`): by URI (the default), by value as
    /// text or as an integer, either way round.
    public enum Order: Equatable, Sendable {
        case uri, value, integerValue

        fileprivate var sql: String {
            switch self {
            case .uri: "uri"
            case .value: "value"
            case .integerValue: "CAST(value AS INTEGER)"
            }
        }
    }

    public let limits: Limits
    private let path: String
    /// Opened on the first use: a box whose clients keep no stickers makes no file (and
    /// spends nothing on it at the start, before its first sound).
    private var connection: SQLite?
    /// Stickers in the file: counted once it is opened, then kept by each change.
    private var count = 0

    /// The database at `path`, made (in WAL mode with full syncs) when first used.
    public init(path: String, limits: Limits = Limits()) {
        self.path = path
        self.limits = limits
    }

    /// The open database, opened (or made) now if it is not yet; a failure is tried
    /// again on the next use (a card made writable, space freed).
    private func open() throws(Failure) -> SQLite {
        if let connection { return connection }
        do {
            mkdir(AtomicFile.folder(of: path), 0o755)
            let db = try SQLite(path: path)
            try db.run("PRAGMA journal_mode = WAL")
            try db.run("PRAGMA synchronous = FULL")
            try db.run("PRAGMA journal_size_limit = 1048576")
            // MPD's table and index, as its sticker.sql has them.
            try db.run("CREATE TABLE IF NOT EXISTS sticker(type VARCHAR NOT NULL, uri VARCHAR NOT NULL, name VARCHAR NOT NULL, value VARCHAR NOT NULL)")
            try db.run("CREATE UNIQUE INDEX IF NOT EXISTS sticker_value ON sticker(type, uri, name)")
            count = Int(try db.run("SELECT count(*) FROM sticker").first?.first?.integer ?? 0)
            connection = db
            return db
        } catch {
            throw .database(error)
        }
    }

    /// The value of one sticker, or nil.
    public func value(type: String, uri: String, name: String) throws(Failure) -> String? {
        try database { db in try db.run("SELECT value FROM sticker WHERE type = ? AND uri = ? AND name = ?", [.text(type), .text(uri), .text(name)]) }
            .first?.first?.text
    }

    /// All stickers of one object, by name (in bytes' order).
    public func stickers(type: String, uri: String) throws(Failure) -> [(name: String, value: String)] {
        try database { db in try db.run("SELECT name, value FROM sticker WHERE type = ? AND uri = ? ORDER BY name", [.text(type), .text(uri)]) }
            .map { ($0[0].text, $0[1].text) }
    }

    /// Sets one sticker, replacing its value. An empty name sets nothing (as in MPD);
    /// returns whether the database changed.
    @discardableResult
    public func set(type: String, uri: String, name: String, value: String) throws(Failure) -> Bool {
        guard !name.isEmpty else { return false }
        try check(name: name, value: value)
        try change { db in
            try db.run("UPDATE sticker SET value = ? WHERE type = ? AND uri = ? AND name = ?", [.text(value), .text(type), .text(uri), .text(name)])
            if db.changes == 0 { try insert(db, type: type, uri: uri, name: name, value: value) }
        }
        return true
    }

    /// MPD 0.24's `sticker inc` (`dec`: `subtracting`), as MPD's SQL does it: a missing
    /// sticker is made with `amount` as written; an existing one gets SQLite's sum (or
    /// difference) of its value and `amount`, text that is no number counting as 0
    /// (`2` + `1.5` is `3.5`, `2` + `abc` is `2`).
    public func add(_ amount: String, subtracting: Bool = false, type: String, uri: String, name: String) throws(Failure) {
        try check(name: name, value: amount)
        try change { db in
            let exists = !(try db.run("SELECT 1 FROM sticker WHERE type = ? AND uri = ? AND name = ?",
                                      [.text(type), .text(uri), .text(name)]).isEmpty)
            if exists {
                try db.run("UPDATE sticker SET value = value \(subtracting ? "-" : "+") ? WHERE type = ? AND uri = ? AND name = ?",
                           [.text(amount), .text(type), .text(uri), .text(name)])
                // Far past the value limit only by a sum of huge numbers: refused, not kept.
                let value = try db.run("SELECT value FROM sticker WHERE type = ? AND uri = ? AND name = ?",
                                       [.text(type), .text(uri), .text(name)]).first?.first?.text ?? ""
                try check(name: name, value: value)
            } else {
                try insert(db, type: type, uri: uri, name: name, value: amount)
            }
        }
    }

    /// Deletes one sticker (`name`) or all of an object's; false when there was none.
    public func delete(type: String, uri: String, name: String? = nil) throws(Failure) -> Bool {
        try change { db throws -> Bool in
            if let name {
                try db.run("DELETE FROM sticker WHERE type = ? AND uri = ? AND name = ?", [.text(type), .text(uri), .text(name)])
            } else {
                try db.run("DELETE FROM sticker WHERE type = ? AND uri = ?", [.text(type), .text(uri)])
            }
            count -= db.changes
            return db.changes > 0
        }
    }

    /// The objects whose URI starts with `prefix` with a sticker `name` that matches, with
    /// its value, in `order` (descending: `reversed`; none: the table's own order), the
    /// `window` of them. As MPD's SQL has it: the prefix is matched with LIKE (ASCII
    /// without case, `%` and `_` matching any), and the window taken before a caller
    /// drops what it does not show.
    public func find(type: String, prefix: String, name: String, _ match: Match = .exists, order: Order? = nil,
                     reversed: Bool = false, window: (start: Int, end: Int?)? = nil) throws(Failure) -> [(uri: String, value: String)] {
        var sql = "SELECT uri, value FROM sticker WHERE type = ? AND uri LIKE (? || '%') AND name = ?"
        var arguments: [SQLite.Value] = [.text(type), .text(prefix), .text(name)]
        let (condition, argument) = match.sql
        sql += condition
        if let argument { arguments.append(argument) }
        if let order { sql += " ORDER BY \(order.sql)\(reversed ? " DESC" : "")" }
        if let window { sql += " LIMIT \(window.end.map { $0 - window.start } ?? -1) OFFSET \(window.start)" }
        return try database { db in try db.run(sql, arguments) }.map { ($0[0].text, $0[1].text) }
    }

    /// Every sticker name in use, once each, in bytes' order (MPD 0.24's `stickernames`).
    public func names() throws(Failure) -> [String] {
        try database { db in try db.run("SELECT DISTINCT name FROM sticker ORDER BY name") }.map { $0[0].text }
    }

    /// Each name in use with each type it is used on (or only on `type`), by name (MPD
    /// 0.24's `stickernamestypes`).
    public func namesAndTypes(type: String? = nil) throws(Failure) -> [(name: String, type: String)] {
        let rows = try database { db in
            if let type {
                return try db.run("SELECT name, type FROM sticker WHERE type = ? GROUP BY name, type ORDER BY name", [.text(type)])
            }
            return try db.run("SELECT name, type FROM sticker GROUP BY name, type ORDER BY name")
        }
        return rows.map { ($0[0].text, $0[1].text) }
    }

    /// Stickers in the database (opened to count them).
    public var stickerCount: Int { (try? open()).map { _ in count } ?? 0 }

    // MARK: Inside

    private func check(name: String, value: String) throws(Failure) {
        guard name.utf8.count <= limits.nameBytes else { throw .nameTooLong(limit: limits.nameBytes) }
        guard value.utf8.count <= limits.valueBytes else { throw .valueTooLong(limit: limits.valueBytes) }
    }

    /// A new row, if there is room for one. Inside a transaction.
    private func insert(_ db: SQLite, type: String, uri: String, name: String, value: String) throws {
        guard count < limits.stickers else { throw Failure.full(limit: limits.stickers) }
        try db.run("INSERT INTO sticker(type, uri, name, value) VALUES(?, ?, ?, ?)", [.text(type), .text(uri), .text(name), .text(value)])
        count += 1
    }

    /// `body` in one transaction; the count is taken again if it fails (a rolled-back
    /// insert or delete must not leave it wrong).
    private func change<T>(_ body: (SQLite) throws -> T) throws(Failure) -> T {
        let db = try open()
        do {
            return try db.transaction { try body(db) }
        } catch {
            count = Int((try? db.run("SELECT count(*) FROM sticker"))?.first?.first?.integer ?? Int64(count))
            if let failure = error as? Failure { throw failure }
            throw .database(error as? SQLiteError ?? SQLiteError(code: -1, message: "\(error)"))
        }
    }

    private func database<T>(_ body: (SQLite) throws -> T) throws(Failure) -> T {
        let db = try open()
        do {
            return try body(db)
        } catch {
            throw .database(error as? SQLiteError ?? SQLiteError(code: -1, message: "\(error)"))
        }
    }
}
