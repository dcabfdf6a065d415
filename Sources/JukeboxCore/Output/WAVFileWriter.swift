#if canImport(Glibc)
import Glibc
#endif

/// Writes PCM to a WAV file or, for `-`, raw PCM to standard output. The header sizes
/// are patched at `finish()`; output larger than WAV's 4 GiB limit is refused.
public final class WAVFileWriter {
    private let fd: Int32
    private let path: String
    private let info: StreamInfo
    private let isStdout: Bool
    private var dataBytes: Int64 = 0

    public init(path: String, info: StreamInfo) throws {
        self.path = path
        self.info = info
        isStdout = path == "-"
        if isStdout {
            fd = STDOUT_FILENO
        } else {
            do { fd = try systemCall { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } } catch {
                throw MediaError.unreadable(path, "cannot create: \(error)")
            }
            try writeAll(header(dataBytes: 0))
        }
    }

    deinit { if !isStdout { close(fd) } }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        dataBytes += Int64(bytes.count)
        if !isStdout, dataBytes > Int64(UInt32.max) - 64 {
            throw MediaError.unsupported(path, "WAV output over 4 GiB; use -o - for raw PCM")
        }
        try writeAll(bytes)
    }

    public func finish() throws {
        guard !isStdout else { return }
        if dataBytes & 1 == 1 { try writeAll([0]) }
        let h = header(dataBytes: dataBytes)
        do {
            let n = try systemCall { h.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
            guard n == h.count else { throw Errno(EIO) }
        } catch {
            throw MediaError.unreadable(path, "cannot write: \(error)")
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        do { try JukeboxCore.writeAll(fd, bytes) } catch { throw MediaError.unreadable(path, "cannot write: \(error)") }
    }

    /// Plain PCM for mono/stereo 16-bit; WAVE_FORMAT_EXTENSIBLE otherwise, as the
    /// format requires for more than two channels or more than 16 bits.
    private func header(dataBytes: Int64) -> [UInt8] {
        let extensible = info.channels > 2 || info.sampleFormat != .s16
        let fmtSize: UInt32 = extensible ? 40 : 16
        let blockAlign = UInt16(info.bytesPerFrame)
        var h: [UInt8] = []
        func u16(_ v: UInt16) { h += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) { u16(UInt16(v & 0xFFFF)); u16(UInt16(v >> 16)) }
        h += Array("RIFF".utf8)
        u32(UInt32(4 + 8 + fmtSize + 8 + UInt32(dataBytes + (dataBytes & 1))))
        h += Array("WAVEfmt ".utf8)
        u32(fmtSize)
        u16(extensible ? 0xFFFE : 1)
        u16(UInt16(info.channels))
        u32(UInt32(info.sampleRate))
        u32(UInt32(info.sampleRate) * UInt32(blockAlign))
        u16(blockAlign)
        u16(UInt16(info.sampleFormat.bitsPerSample))
        if extensible {
            u16(22)
            u16(UInt16(info.sampleFormat.bitsPerSample))
            u32(Self.channelMask(info.channels))
            // KSDATAFORMAT_SUBTYPE_PCM
            h += [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        h += Array("data".utf8)
        u32(UInt32(dataBytes))
        return h
    }

    /// The usual speaker layouts for 1 to 8 channels (as FLAC defines its channel order).
    static func channelMask(_ channels: Int) -> UInt32 {
        [0x4, 0x3, 0x7, 0x33, 0x37, 0x3F, 0x70F, 0x63F][max(1, min(channels, 8)) - 1]
    }
}
