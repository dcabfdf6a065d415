import Logging

#if canImport(Glibc)
import Glibc
#endif

/// One line per event on stderr. Under systemd (JOURNAL_STREAM set) each line starts with
/// a `<N>` syslog priority, which journald turns into the entry's level and strips; in a
/// terminal it shows the time and the level, coloured; anywhere else, plain text.
public struct StderrLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let style: Style

    enum Style { case journal, terminal, plain }

    public init(label: String) {
        self.label = label
        if getenv("JOURNAL_STREAM") != nil {
            style = .journal
        } else if isatty(STDERR_FILENO) != 0 {
            style = .terminal
        } else {
            style = .plain
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let level = event.level
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let suffix = fields.isEmpty ? "" : " " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = "\(event.message)\(suffix)".asLogText
        let line: String
        switch style {
        case .journal:
            line = "<\(Self.syslogPriority(level))>\(text)\n"
        case .terminal:
            let colour = level >= .error ? "\u{1B}[31m" : level >= .warning ? "\u{1B}[33m" : ""
            line = "\(Self.clock()) \(colour)\(level.rawValue)\(colour.isEmpty ? "" : "\u{1B}[0m") \(text)\n"
        case .plain:
            line = "\(level.rawValue) \(text)\n"
        }
        var output = line
        _ = output.withUTF8 { try? writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    static func clock() -> String {
        var t = time(nil)
        var parts = tm()
        localtime_r(&t, &parts)
        return [parts.tm_hour, parts.tm_min, parts.tm_sec].map { String(Int($0)).leftPadded(to: 2) }.joined(separator: ":")
    }
}

extension String {
    /// One event, one line: journald and grep both depend on it. File names that are not
    /// UTF-8 appear with U+FFFD where their odd bytes are (see `FilePath`).
    var asLogText: String {
        String(FilePath.displayed(self).unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
