import CFreeType

/// A FreeType call that failed: what was being done and FreeType's error code. The one
/// place FreeType's return codes become thrown errors.
public struct FreeTypeError: Error, CustomStringConvertible, Equatable {
    public let doing: String
    public let code: Int32

    public var description: String {
        // Debian builds FreeType without its error strings; the common codes by name.
        let reason = switch code {
        case 0x01: "cannot open the file"
        case 0x02, 0x03: "not a font file FreeType can read"
        case 0x06: "no such face in the file"
        case 0x40: "out of memory"
        default: "FreeType error 0x\(String(code, radix: 16))"
        }
        return "\(doing): \(reason)"
    }

    static func check(_ doing: @autoclosure () -> String, _ result: FT_Error) throws(FreeTypeError) {
        guard result != 0 else { return }
        throw FreeTypeError(doing: doing(), code: result)
    }
}

/// One FreeType library instance and the faces opened with it. Not thread-safe (nor is
/// FreeType): it belongs to the thread that draws.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(FreeTypeError) {
        var library: FT_Library?
        try FreeTypeError.check("starting FreeType", FT_Init_FreeType(&library))
        handle = library!
    }

    deinit { FT_Done_FreeType(handle) }

    /// Face `index` of the file at `path` (a .ttc holds several).
    func face(path: String, index: Int = 0) throws(FreeTypeError) -> FT_Face {
        var face: FT_Face?
        try FreeTypeError.check(path, FT_New_Face(handle, path, FT_Long(index), &face))
        return face!
    }
}
