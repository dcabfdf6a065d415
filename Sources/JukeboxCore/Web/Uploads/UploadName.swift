/// The path an upload is to take under the upload folder, as the browser gives it
/// (`webkitRelativePath` or a file name): checked so that it can only name a visible
/// music file in a folder below, never climb out, hide, or carry bytes a terminal or a
/// client would trip over.
struct UploadName: Sendable, Equatable {
    /// The folders on the way, outermost first; empty for a file at the top.
    let folders: [String]
    let fileName: String
    /// Lower-cased, without the dot.
    let fileExtension: String
    /// How the format's bytes must begin.
    let signature: UploadSignature

    static let maxComponentBytes = 255
    static let maxPathBytes = 1024
    /// Folders and the file together: `Artist/Album/CD 1/01.flac` is 4.
    static let maxLevels = 8

    init(_ relativePath: String) throws(UploadRefusal) {
        let components = try Self.components(of: relativePath)
        let fileName = components[components.count - 1]
        let ext = fileName.lastIndex(of: ".").map { String(fileName[fileName.index(after: $0)...]).lowercased() } ?? ""
        guard !ext.isEmpty else { throw .notPlayableName("\(fileName) has no extension") }
        guard let signature = UploadSignature(fileExtension: ext) else { throw .notPlayableName(".\(ext)") }
        self.folders = Array(components.dropLast())
        self.fileName = fileName
        self.fileExtension = ext
        self.signature = signature
    }

    /// The path's parts, each checked; the whole-path rules first, so a message never
    /// shows a control character.
    static func components(of path: String) throws(UploadRefusal) -> [String] {
        guard !path.isEmpty else { throw .badRequest("the upload has no name") }
        if path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .badRequest("the name holds a control character")
        }
        if path.contains("\\") { throw .badRequest("the name \(path) holds a backslash") }
        if path.utf8.count > maxPathBytes {
            throw .badRequest("the name is \(path.utf8.count) bytes long (\(maxPathBytes) at most)")
        }
        if path.hasPrefix("/") { throw .badRequest("the name \(path) is absolute: give a path under the upload folder") }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            try check(component: part, of: path)
        }
        if parts.count > maxLevels {
            throw .badRequest("the name \(path) is \(parts.count) levels deep (\(maxLevels) at most)")
        }
        return parts
    }

    /// One folder or file name: not empty, not `.` or `..`, not hidden, not too long.
    static func check(component part: String, of path: String) throws(UploadRefusal) {
        if part.isEmpty { throw .badRequest("the name \(path) has an empty part (// or a / at an end)") }
        if part == "." || part == ".." { throw .badRequest("the name \(path) may not hold . or .. as a part") }
        if part.hasPrefix(".") { throw .badRequest("\(part) starts with a dot: hidden files are not taken") }
        if part.utf8.count > maxComponentBytes {
            throw .badRequest("a part of the name is \(part.utf8.count) bytes long (\(maxComponentBytes) at most)")
        }
    }
}
