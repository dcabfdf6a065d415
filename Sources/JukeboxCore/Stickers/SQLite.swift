import CSQLite

#if canImport(Glibc)
import Glibc
#endif

/// An SQLite result code that is not success, with SQLite's own message. The one place
/// where SQLite's codes become errors is `SQLite.check`: call sites never compare codes.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    public let message: String

    public var description: String { "\(message) (SQLite code \(code))" }
}

/// One connection to an SQLite database file, through the system's libsqlite3. A class
/// that closes its connection when it goes; its statements are made, run and finalised
/// by `run`, so no statement outlives a call. Not for several threads at once: its owner
/// says which thread uses it.
final class SQLite {
    private let handle: OpaquePointer

    /// Opens (or makes) the database at `path`.
    init(path: String) throws(SQLiteError) {
        var made: OpaquePointer?
        let code = sqlite3_open_v2(path, &made, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard let made else { throw SQLiteError(code: code, message: "out of memory") }
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(made)))
            sqlite3_close_v2(made)
            throw error
        }
        handle = made
        // Another process holding the file (the sqlite3 tool, a backup) is waited for a
        // little rather than failing at once.
        sqlite3_busy_timeout(handle, 2000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// A value bound to a `?` or read from a column.
    enum Value: Equatable, Sendable {
        case text(String)
        case integer(Int64)
    }

    /// Runs one statement with `arguments` for its `?`s, and returns its rows (each as its
    /// columns, text or integer as SQLite typed them).
    @discardableResult
    func run(_ sql: String, _ arguments: [Value] = []) throws(SQLiteError) -> [[Value]] {
        var prepared: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &prepared, nil))
        guard let statement = prepared else { return [] }  // only blanks or a comment
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case .integer(let n): try check(sqlite3_bind_int64(statement, position, n))
            case .text(let text):
                // A copy SQLite frees when done with it (SQLITE_TRANSIENT is a macro Swift cannot import).
                let bytes = Array(text.utf8)
                let copy = malloc(max(bytes.count, 1))!
                bytes.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: $0.count) } }
                try check(sqlite3_bind_text(statement, position, copy.assumingMemoryBound(to: CChar.self), Int32(bytes.count), free))
            }
        }
        var rows: [[Value]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw error(code) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                if sqlite3_column_type(statement, column) == SQLITE_INTEGER { return .integer(sqlite3_column_int64(statement, column)) }
                let count = Int(sqlite3_column_bytes(statement, column))
                guard let text = sqlite3_column_text(statement, column) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            })
        }
    }

    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in one transaction, taking the write lock at once: committed when it
    /// returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw error(code) }
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

extension SQLite.Value {
    var text: String {
        switch self {
        case .text(let text): text
        case .integer(let n): String(n)
        }
    }

    var integer: Int64? {
        if case .integer(let n) = self { return n }
        return nil
    }
}
