/// Which songs `find`, `search`, `list` and `count` mean: MPD's filter expressions
/// (`(artist == 'X')`, `(any contains 'x')`, `(!(...))`, `((...) AND (...))`,
/// `(modified-since 'T')`, MPD 0.24's `(added-since 'T')` and `eq_cs`, `contains_ci`...) or
/// the older `TYPE VALUE` pairs. `find` compares exactly; `search` ignores case, and its
/// old-style pairs match anywhere in the value, as in MPD.
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

    /// How a value is compared: MPD's `==`, `contains`, `starts_with` and `=~`, each
    /// with its negation (`!=`, `!contains`...).
    public struct Comparison {
        public enum Kind { case equal, contains, startsWith, matches(Regex<AnyRegexOutput>) }
        public var kind: Kind
        public var negated = false
        /// MPD 0.24's `eq_cs`, `contains_ci`...: its own rule on case, whatever the
        /// command's (nil: the command's).
        public var foldCase: Bool?

        public static var equal: Comparison { Comparison(kind: .equal) }
        public static var contains: Comparison { Comparison(kind: .contains) }
    }

    /// The file's time, and MPD 0.24's time the library first found the song.
    public enum Time: Sendable { case modified, added }

    case compare(Subject, Comparison, String)
    /// The songs whose time is `seconds` or later.
    case since(Time, seconds: Int)
    /// The songs of an audio format (`(AudioFormat == '44100:16:2')`), or of a mask of one
    /// (`=~ '44100:*:2'`): rate, sample format, channels, nil for `*`.
    case audioFormat([String?])
    /// MPD 0.24's `(prio >= N)`: queue entries of that priority or more.
    case priority(atLeast: Int)
    case not(SongFilter)
    case all([SongFilter])

    public struct Problem: Error, Equatable {
        public var message: String
    }

    // MARK: Matching

    /// One song's test: its tags, its name relative to the music folder (worked out only
    /// if a test needs it), and its priority in the queue (0 in the library, as in MPD).
    public typealias Test = (_ tags: SongTags, _ uri: () -> String, _ priority: Int) -> Bool

    /// The filter as one test, built once per command: which comparison, on which tags,
    /// case folded or not (`foldCase`: `search`'s), is chosen here and not again for each
    /// of 10,000 songs.
    public func test(foldCase: Bool) -> Test {
        switch self {
        case .not(let inner):
            let test = inner.test(foldCase: foldCase)
            return { !test($0, $1, $2) }
        case .all(let parts):
            let tests = parts.map { $0.test(foldCase: foldCase) }
            return { tags, uri, priority in tests.allSatisfy { $0(tags, uri, priority) } }
        case .since(let time, let seconds):
            return { tags, _, _ in ((time == .modified ? tags.modified : tags.added) ?? .min) >= seconds }
        case .priority(let least):
            return { _, _, priority in priority >= least }
        case .audioFormat(let wanted):
            return { tags, _, _ in
                guard let format = tags.format else { return false }
                let parts = format.split(separator: ":", omittingEmptySubsequences: false)
                return parts.count == wanted.count && zip(parts, wanted).allSatisfy { part, want in want.map { $0 == part } ?? true }
            }
        case .compare(.base, _, let value):
            let folder = value.hasSuffix("/") ? value : value + "/"
            return { _, uri, _ in value.isEmpty || uri().hasPrefix(folder) }
        case .compare(let subject, let comparison, let value):
            let match = Self.match(comparison.kind, value, foldCase: comparison.foldCase ?? foldCase)
            let negated = comparison.negated
            switch subject {
            case .base, .file: return { _, uri, _ in match(uri()) != negated }
            case .tag(let tag):
                // As MPD: a song matches when one of its values (or its fallback's) does,
                // and a negation when none does; a song without the tag matches when the
                // value is empty (`(genre == '')` finds songs without one).
                return { tags, _, _ in
                    var matched = false
                    let any = tag.forEachMatchedValue(in: tags) { value in if !matched, match(value) { matched = true } }
                    return (any ? matched : value.isEmpty) != negated
                }
            case .any:
                return { tags, _, _ in
                    var matched = false
                    tags.forEachValue { _, value in if !matched, match(value) { matched = true } }
                    return matched != negated
                }
            }
        }
    }

    /// The comparison, without its negation, as a test of one value. Folding case, the
    /// value is lowercased here, once.
    private static func match(_ kind: Comparison.Kind, _ value: String, foldCase: Bool) -> (String) -> Bool {
        let folded = foldCase ? value.lowercased() : value
        switch (kind, foldCase) {
        case (.equal, true): return { CaseFold.equal($0, folded) }
        case (.equal, false): return { $0 == value }
        case (.contains, true): return { CaseFold.contains($0, folded) }
        case (.contains, false): return { $0.firstRange(of: value) != nil }  // not contains: Foundation's would link it
        case (.startsWith, true): return { CaseFold.hasPrefix($0, folded) }
        case (.startsWith, false): return { $0.hasPrefix(value) }
        case (.matches(let regex), true):
            let caseless = regex.ignoresCase()
            return { $0.contains(caseless) }
        case (.matches(let regex), false): return { $0.contains(regex) }
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
            if let time = Self.time(args[at]) {
                parts.append(.since(time, seconds: try Self.seconds(args[at + 1])))
            } else {
                // Unnamed here, as MPD words it for a pair (an expression names it).
                guard let subject = try? subject(args[at]) else { throw Problem(message: "Unknown filter type") }
                parts.append(.compare(subject, subject == .base ? .equal : (oldStyleContains ? .contains : .equal), args[at + 1]))
            }
            at += 2
        }
        guard !parts.isEmpty else { throw Problem(message: "too few arguments") }
        return (parts.count == 1 ? parts[0] : .all(parts), at - args.startIndex)
    }

    /// `modified-since` and `added-since`, written so (MPD does not fold their case).
    static func time(_ name: String) -> Time? {
        switch name {
        case "modified-since": .modified
        case "added-since": .added
        default: nil
        }
    }

    static func seconds(_ text: String) throws(Problem) -> Int {
        do {
            return try FilterTime.seconds(text)
        } catch {
            throw Problem(message: error.message)
        }
    }

    static func subject(_ name: String) throws(Problem) -> Subject {
        switch name.lowercased() {
        case "any": return .any
        case "file", "filename": return .file
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
            if let time = SongFilter.time(name) {
                let value = try quoted()
                try expect(")")
                return .since(time, seconds: try SongFilter.seconds(value))
            }
            if name.lowercased() == "prio" {
                guard word() == ">=" else { throw Problem(message: "'>=' expected") }
                skipSpaces()
                var digits = ""
                while at < text.count, text[at].isASCII, text[at].isNumber {
                    digits.append(text[at])
                    at += 1
                }
                guard !digits.isEmpty else { throw Problem(message: "Number expected") }
                guard digits.count <= 3, let least = Int(digits), least <= 255 else { throw Problem(message: "Invalid priority value") }
                try expect(")")
                return .priority(atLeast: least)
            }
            if name.lowercased() == "audioformat" {
                let op = word()
                guard op == "==" || op == "=~" else { throw Problem(message: "'==' or '=~' expected") }
                let value = try quoted()
                try expect(")")
                return .audioFormat(try Self.audioFormat(value, mask: op == "=~"))
            }
            let subject = try SongFilter.subject(name)
            skipSpaces()
            if subject == .base {
                let value = try quoted()
                try expect(")")
                return .compare(.base, .equal, value)
            }
            let rest = String(text[at...])
            let op = word()
            // Known before its value is read, as in MPD, which names it with the rest.
            guard try Self.comparison(op, "") != nil else { throw Problem(message: "Unknown filter operator: \(rest.prefix(64))") }
            let value = try quoted()
            try expect(")")
            return .compare(subject, try Self.comparison(op, value)!, value)
        }

        /// `RATE:FORMAT:CHANNELS` as MPD reads it for a filter, each `*` in a mask.
        static func audioFormat(_ text: String, mask: Bool) throws(Problem) -> [String?] {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            func field(_ at: Int, _ valid: (String) -> Bool, missing: String, bad: String) throws(Problem) -> String? {
                guard at < parts.count else { throw Problem(message: missing) }
                if mask, parts[at] == "*" { return nil }
                guard valid(parts[at]) else { throw Problem(message: bad) }
                return parts[at]
            }
            func number(_ s: String) -> Bool { !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
            let rate = try field(0, number, missing: "Failed to parse the sample rate", bad: "Failed to parse the sample rate")
            let format = try field(1, { ["8", "16", "24", "32", "f", "dsd"].contains($0) }, missing: "Sample format missing",
                                   bad: "Invalid sample format: \"\(parts.count > 1 ? parts[1] : "")\"")
            let channels = try field(2, number, missing: "Channel count missing", bad: "Failed to parse the channel count")
            guard parts.count == 3 else { throw Problem(message: "Extra data after channel count: \(parts[3...].joined(separator: ":"))") }
            return [rate, format, channels]
        }

        /// An operator as MPD reads it: `==`, `!=`, `=~`, `!~`, and (in any case)
        /// `contains`, `starts_with`, `eq`, each negated by `!`, the last three with MPD
        /// 0.24's `_cs` or `_ci` for a rule on case of their own (`eq` only so).
        static func comparison(_ op: String, _ value: String) throws(Problem) -> Comparison? {
            switch op {
            case "==": return .equal
            case "!=": return Comparison(kind: .equal, negated: true)
            case "=~", "!~":
                guard let regex = try? Regex(value) else { throw Problem(message: "Invalid regular expression: \(value.prefix(64))") }
                return Comparison(kind: .matches(regex), negated: op == "!~")
            default: break
            }
            var name = op.lowercased()[...]
            let negated = name.hasPrefix("!")
            if negated { name = name.dropFirst() }
            var foldCase: Bool?
            if name.hasSuffix("_cs") || name.hasSuffix("_ci") {
                foldCase = name.hasSuffix("_ci")
                name = name.dropLast(3)
            }
            switch name {
            case "contains": return Comparison(kind: .contains, negated: negated, foldCase: foldCase)
            case "starts_with": return Comparison(kind: .startsWith, negated: negated, foldCase: foldCase)
            case "eq" where foldCase != nil: return Comparison(kind: .equal, negated: negated, foldCase: foldCase)
            default: return nil
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
