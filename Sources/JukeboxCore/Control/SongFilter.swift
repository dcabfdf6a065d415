/// Which songs `find`, `search`, `list` and `count` mean: MPD's filter expressions
/// (`(artist == 'X')`, `(any contains 'x')`, `(!(...))`, `((...) AND (...))`) or the older
/// `TYPE VALUE` pairs. `find` compares exactly; `search` ignores case, and its old-style
/// pairs match anywhere in the value, as in MPD.
public indirect enum SongFilter {
    public enum Subject: Sendable, Equatable {
        case tag(MPDTag)
        /// A tag MPD knows that the box does not read: it never has a value.
        case unreadTag
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
    case not(SongFilter)
    case all([SongFilter])

    public struct Problem: Error, Equatable {
        public var message: String
    }

    // MARK: Matching

    /// Whether the song at `uri` with `tags` is meant; `foldCase` for `search`.
    public func matches(uri: String, tags: SongTags, foldCase: Bool) -> Bool {
        switch self {
        case .not(let inner): return !inner.matches(uri: uri, tags: tags, foldCase: foldCase)
        case .all(let parts): return parts.allSatisfy { $0.matches(uri: uri, tags: tags, foldCase: foldCase) }
        case .compare(let subject, let comparison, let value):
            switch subject {
            case .base:
                let folder = value.hasSuffix("/") ? value : value + "/"
                return value.isEmpty || uri.hasPrefix(folder)
            case .file: return Self.test(uri, comparison, value, foldCase: foldCase)
            case .tag(let tag): return Self.test(tag.value(in: tags), comparison, value, foldCase: foldCase)
            case .unreadTag: return Self.test(nil, comparison, value, foldCase: foldCase)
            case .any:
                let values = MPDTag.allCases.compactMap { $0.value(in: tags) }
                switch comparison {
                case .notEqual, .notMatches: return values.allSatisfy { Self.test($0, comparison, value, foldCase: foldCase) }
                default: return values.contains { Self.test($0, comparison, value, foldCase: foldCase) }
                }
            }
        }
    }

    private static func test(_ candidate: String?, _ comparison: Comparison, _ value: String, foldCase: Bool) -> Bool {
        // A missing tag equals the empty string, as in MPD: `(genre == '')` finds songs without one.
        let have = foldCase ? (candidate ?? "").lowercased() : candidate ?? ""
        let want = foldCase ? value.lowercased() : value
        switch comparison {
        case .equal: return have == want
        case .notEqual: return have != want
        case .contains: return candidate != nil && have.contains(want)
        case .startsWith: return candidate != nil && have.hasPrefix(want)
        case .matches(let regex): return (candidate ?? "").contains(regex)
        case .notMatches(let regex): return !(candidate ?? "").contains(regex)
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
            let subject = try subject(args[at])
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
            if MPDTag.isKnown(name) { return .unreadTag }
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
