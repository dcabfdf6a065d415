/// Which songs `find`, `search`, `list` and `count` mean: MPD's filter expressions
/// (`(artist == 'X')`, `(any contains 'x')`, `(!(...))`, `((...) AND (...))`) or the older
/// `TYPE VALUE` pairs. `find` compares exactly; `search` ignores case, and its old-style
/// pairs match anywhere in the value, as in MPD.
public indirect enum SongFilter {
    public enum Subject: Sendable, Equatable {
        case tag(MPDTag)
        /// Any tag.
        case any
        /// The file's name, relative to the music folder.
        case file
        /// Everything under a folder.
        case base
    }

    public enum Comparison {
        case equal, notEqual, contains, startsWith
        case matches(Regex<AnyRegexOutput>), notMatches(Regex<AnyRegexOutput>)
    }

    case compare(Subject, Comparison, String)
    /// `(prio >= N)` (MPD 0.24): a queue entry's priority; a song of the library has none (0).
    case priority(atLeast: Int)
    case not(SongFilter)
    case all([SongFilter])

    public struct Problem: Error, Equatable {
        public var message: String
    }

    // MARK: Matching

    /// The same filter with its values lowercased, for `search` (`test(foldCase: true)`
    /// takes them so, instead of lowercasing them for every song).
    public func foldingCase() -> SongFilter {
        switch self {
        case .not(let inner): .not(inner.foldingCase())
        case .all(let parts): .all(parts.map { $0.foldingCase() })
        case .compare(let subject, let comparison, let value): .compare(subject, comparison, subject == .base ? value : value.lowercased())
        case .priority: self
        }
    }

    /// One song's test: its tags, and its name relative to the music folder (worked out
    /// only if a test needs it).
    public typealias Test = (_ tags: SongTags, _ uri: () -> String) -> Bool

    /// The filter as one test, built once per command: which comparison, on which tags,
    /// case folded or not, is chosen here and not again for each of 10,000 songs.
    /// `foldCase` (for `search`) takes a filter from `foldingCase()`.
    public func test(foldCase: Bool) -> Test {
        switch self {
        case .priority(let minimum):
            return { _, _ in minimum == 0 }
        case .not(let inner):
            let test = inner.test(foldCase: foldCase)
            return { !test($0, $1) }
        case .all(let parts):
            let tests = parts.map { $0.test(foldCase: foldCase) }
            return { tags, uri in tests.allSatisfy { $0(tags, uri) } }
        case .compare(let subject, let comparison, let value):
            let check = Self.check(comparison, value, foldCase: foldCase)
            switch subject {
            case .base:
                let folder = value.hasSuffix("/") ? value : value + "/"
                return { _, uri in value.isEmpty || uri().hasPrefix(folder) }
            case .file: return { _, uri in check(uri()) }
            case .tag(let tag):
                // As MPD: a song matches when any of its values does (`!=` too), and one
                // without the tag (or its fallback) is tested as the empty value.
                return { tags, _ in
                    var matched = false
                    let any = tag.forEachMatchedValue(in: tags) { value in if !matched, check(value) { matched = true } }
                    return any ? matched : check(nil)
                }
            case .any:
                switch comparison {
                case .notEqual, .notMatches:
                    return { tags, _ in
                        var all = true
                        tags.forEachValue { _, value in all = all && check(value) }
                        return all
                    }
                default:
                    return { tags, _ in
                        var any = false
                        tags.forEachValue { _, value in any = any || check(value) }
                        return any
                    }
                }
            }
        }
    }

    /// The test of a queue entry, whose priority `(prio >= N)` compares; the rest as `test`.
    public func queueTest(foldCase: Bool) -> (_ tags: SongTags, _ uri: () -> String, _ priority: Int) -> Bool {
        switch self {
        case .priority(let minimum):
            return { _, _, priority in priority >= minimum }
        case .not(let inner):
            let test = inner.queueTest(foldCase: foldCase)
            return { !test($0, $1, $2) }
        case .all(let parts):
            let tests = parts.map { $0.queueTest(foldCase: foldCase) }
            return { tags, uri, priority in tests.allSatisfy { $0(tags, uri, priority) } }
        case .compare:
            let test = test(foldCase: foldCase)
            return { tags, uri, _ in test(tags, uri) }
        }
    }

    /// The comparison as a test of one value (nil: the song lacks the tag). `value` is
    /// lowercased already when `foldCase`. A missing tag equals the empty string, as in
    /// MPD: `(genre == '')` finds songs without one.
    private static func check(_ comparison: Comparison, _ value: String, foldCase: Bool) -> (String?) -> Bool {
        switch (comparison, foldCase) {
        case (.equal, true): return { CaseFold.equal($0 ?? "", value) }
        case (.equal, false): return { ($0 ?? "") == value }
        case (.notEqual, true): return { !CaseFold.equal($0 ?? "", value) }
        case (.notEqual, false): return { ($0 ?? "") != value }
        case (.contains, true): return { $0.map { CaseFold.contains($0, value) } ?? false }
        case (.contains, false): return { $0.map { $0.firstRange(of: value) != nil } ?? false }  // not contains: Foundation's would link it
        case (.startsWith, true): return { $0.map { CaseFold.hasPrefix($0, value) } ?? false }
        case (.startsWith, false): return { $0?.hasPrefix(value) ?? false }
        case (.matches(let regex), _): return { ($0 ?? "").contains(regex) }
        case (.notMatches(let regex), _): return { !($0 ?? "").contains(regex) }
        }
    }

    // MARK: Parsing

    /// The filter in `args` from its start, and how many arguments it took. An argument
    /// starting with `(` is an expression; otherwise `TYPE VALUE` pairs, up to the first
    /// word that is not a type (`sort`, `window`, `group`).
    public static func parse(_ args: ArraySlice<String>, oldStyleContains: Bool) throws(Problem) -> (SongFilter, used: Int) {
        guard let first = args.first else { throw Problem(message: "too few arguments") }
        if first.hasPrefix("(") {
            var parser = ExpressionParser(text: Array(first))
            let filter = try parser.expression()
            parser.skipSpaces()
            guard parser.atEnd else { throw Problem(message: "Unparsed garbage after expression") }
            return (filter, 1)
        }
        var parts: [SongFilter] = []
        var at = args.startIndex
        while at < args.endIndex, !["sort", "window", "group", "position"].contains(args[at].lowercased()) {
            guard at + 1 < args.endIndex else { throw Problem(message: "Incorrect number of filter arguments") }
            // Unnamed here, as MPD words it for a pair (an expression names it).
            guard let subject = try? subject(args[at]) else { throw Problem(message: "Unknown filter type") }
            parts.append(.compare(subject, subject == .base ? .equal : (oldStyleContains ? .contains : .equal), args[at + 1]))
            at += 2
        }
        guard !parts.isEmpty else { throw Problem(message: "too few arguments") }
        return (parts.count == 1 ? parts[0] : .all(parts), at - args.startIndex)
    }

    static func subject(_ name: String) throws(Problem) -> Subject {
        switch name.lowercased() {
        case "any": return .any
        case "file": return .file
        case "base": return .base
        default:
            if let tag = MPDTag(named: name) { return .tag(tag) }
            throw Problem(message: "Unknown filter type: \(name.prefix(64))")
        }
    }

    /// One expression: `(TAG OP 'VALUE')`, `(base 'URI')`, `(!EXPR)`, `(EXPR AND EXPR...)`.
    struct ExpressionParser {
        var text: [Character]
        var at = 0

        var atEnd: Bool { at >= text.count }

        mutating func skipSpaces() { while at < text.count, text[at] == " " { at += 1 } }

        mutating func expect(_ ch: Character) throws(Problem) {
            skipSpaces()
            guard at < text.count, text[at] == ch else { throw Problem(message: "'\(ch)' expected") }
            at += 1
        }

        mutating func expression() throws(Problem) -> SongFilter {
            try expect("(")
            skipSpaces()
            guard at < text.count else { throw Problem(message: "Unexpected end of expression") }
            if text[at] == "!" {
                at += 1
                let inner = try expression()
                try expect(")")
                return .not(inner)
            }
            if text[at] == "(" {
                var parts = [try expression()]
                while true {
                    skipSpaces()
                    guard at < text.count else { throw Problem(message: "')' expected") }
                    if text[at] == ")" { at += 1; break }
                    guard word().uppercased() == "AND" else { throw Problem(message: "'AND' expected") }
                    parts.append(try expression())
                }
                return parts.count == 1 ? parts[0] : .all(parts)
            }
            let name = word()
            if name.lowercased() == "prio" { return try priority() }
            let subject = try SongFilter.subject(name)
            skipSpaces()
            if subject == .base {
                let value = try quoted()
                try expect(")")
                return .compare(.base, .equal, value)
            }
            let op = word()
            let value = try quoted()
            try expect(")")
            switch op {
            case "==": return .compare(subject, .equal, value)
            case "!=": return .compare(subject, .notEqual, value)
            case "contains": return .compare(subject, .contains, value)
            case "starts_with": return .compare(subject, .startsWith, value)
            case "=~", "!~":
                guard let regex = try? Regex(value) else { throw Problem(message: "Invalid regular expression: \(value.prefix(64))") }
                return .compare(subject, op == "=~" ? .matches(regex) : .notMatches(regex), value)
            default: throw Problem(message: "Unknown filter operator: \(op.prefix(32))")
            }
        }

        /// The rest of `(prio >= N)`, after its name: MPD 0.24 takes no other operator.
        mutating func priority() throws(Problem) -> SongFilter {
            skipSpaces()
            guard at + 1 < text.count, text[at] == ">", text[at + 1] == "=" else { throw Problem(message: "'>=' expected") }
            at += 2
            skipSpaces()
            let digits = text[at...].prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { throw Problem(message: "Number expected") }
            at += digits.count
            guard let value = Int(String(digits)), value <= QueueDraft.maximumPriority else { throw Problem(message: "Invalid priority value") }
            guard at < text.count, text[at] == ")" else { throw Problem(message: "')' expected") }
            at += 1
            return .priority(atLeast: value)
        }

        /// A run of characters up to a space, a quote or a parenthesis.
        mutating func word() -> String {
            skipSpaces()
            let start = at
            while at < text.count, !" '\"()".contains(text[at]) { at += 1 }
            return String(text[start..<at])
        }

        /// A value in single or double quotes, with backslash escapes.
        mutating func quoted() throws(Problem) -> String {
            skipSpaces()
            guard at < text.count, text[at] == "'" || text[at] == "\"" else { throw Problem(message: "Quoted string expected") }
            let quote = text[at]
            at += 1
            var value = ""
            while at < text.count, text[at] != quote {
                if text[at] == "\\", at + 1 < text.count { at += 1 }
                value.append(text[at])
                at += 1
            }
            guard at < text.count else { throw Problem(message: "Closing quote not found") }
            at += 1
            return value
        }
    }
}
