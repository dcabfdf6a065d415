/// A chapter as the queue, playlists, the library and clients name it: the file's path,
/// then `chapter001` (as MPD names a CUE sheet's tracks after their file).
public struct ChapterEntry: Sendable, Equatable {
    /// The file that holds the chapter.
    public var file: String
    /// 0-based.
    public var index: Int

    public init(file: String, index: Int) {
        self.file = file
        self.index = index
    }

    static let prefix = "chapter"

    /// Read back from an entry, by its form alone: whether `file` is a file is the
    /// opener's to see.
    public init?(_ entry: String) {
        guard let slash = entry.lastIndex(of: "/"), slash > entry.startIndex else { return nil }
        let name = entry[entry.index(after: slash)...]
        guard name.hasPrefix(Self.prefix) else { return nil }
        let digits = name.dropFirst(Self.prefix.count)
        guard digits.count >= 3, digits.count <= 4, digits.allSatisfy(\.isASCII), let number = Int(digits),
              number >= 1, number <= TagLimits.maximumChapters else { return nil }
        self.init(file: String(entry[..<slash]), index: number - 1)
    }

    public var entry: String {
        let number = String(index + 1)
        return "\(file)/\(Self.prefix)\(String(repeating: "0", count: max(0, 3 - number.count)))\(number)"
    }

    /// The entry names a chapter of a file that is there (not a file of that name).
    var isInAFile: Bool { FileIdentity(path: file) != nil }
}
