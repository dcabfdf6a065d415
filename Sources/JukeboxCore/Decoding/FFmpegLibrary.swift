import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// FFmpeg's libraries, loaded on the first MP4 file (CJukeboxShim/ffmpeg.c says why), and
/// their error codes in words: the one place either happens.
enum FFmpegLibrary {
    /// nil once loaded; otherwise what to tell the person whose box lacks it.
    private static let loading: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard jukebox_ffmpeg_load(&message, message.count) == 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return "AAC and ALAC need FFmpeg's libavformat59 and libavcodec59 (\(reason)): apt install libavformat59 libavcodec59"
        }
        // libavformat reads a cover atom whole into memory; one over this is refused
        // instead (and the file with it). Far above any real block it allocates: a 20-hour
        // book's packet index is about 75 MB.
        jukebox_av_max_alloc(maximumAllocation)
        return nil
    }()

    static let maximumAllocation = 128 << 20

    /// Loads FFmpeg for `path`, or throws why it cannot be.
    static func load(for path: String) throws {
        if let problem = loading { throw MediaError.unsupported(path, problem) }
    }

    static func describe(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        guard jukebox_av_strerror(code, &text, text.count) == 0 else { return "error \(code)" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// FFmpeg's AVERROR_EOF and AVERROR(EAGAIN), which are macros Swift does not import.
    static let endOfFile: Int32 = -Int32(bitPattern: UInt32(0x45) | UInt32(0x4F) << 8 | UInt32(0x46) << 16 | UInt32(0x20) << 24)
    static let tryAgain: Int32 = -EAGAIN
}

extension FFmpegLibrary {
    /// AVERROR_INVALIDDATA.
    static let invalidData: Int32 = -Int32(bitPattern: UInt32(0x49) | UInt32(0x4E) << 8 | UInt32(0x44) << 16 | UInt32(0x41) << 24)
}
