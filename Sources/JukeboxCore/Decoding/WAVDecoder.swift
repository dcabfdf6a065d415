/// PCM WAV, parsed here: RIFF chunks walked with bounds checks, `fmt ` as plain PCM or
/// WAVE_FORMAT_EXTENSIBLE with the PCM subformat, RIFF INFO tags, and the `data` chunk
/// read straight into the caller's buffer. 8-bit (unsigned) WAV is widened to 16-bit.
final class WAVDecoder: AudioDecoder {
    var path: String { file.path }
    var source: any MediaSource { file }
    let container = ContainerFormat.wav
    let info: StreamInfo
    private(set) var metadata = TrackMetadata()
    private(set) var position: Int64 = 0
    private(set) var warnings = DecodeWarnings()
    /// Handed to the source: a read of a file is one bounded `pread`; one of a download may wait.
    var interruption: DecodeInterruption? {
        didSet { file.interruption = interruption }
    }

    private let file: any MediaSource
    private let dataOffset: Int64
    /// Bytes per frame in the file (differs from the output only for 8-bit).
    private let sourceFrameBytes: Int
    private let eightBit: Bool
    private var scratch: [UInt8] = []

    private static let pcmTag: UInt16 = 1
    private static let extensibleTag: UInt16 = 0xFFFE

    init(reader: any MediaSource) throws {
        file = reader
        let path = reader.path
        var format: (tag: UInt16, channels: Int, rate: Int, blockAlign: Int, bits: Int)?
        var data: (offset: Int64, size: Int64)?
        var offset: Int64 = 12
        var chunks = 0
        while offset + 8 <= reader.size, chunks < 1000 {
            chunks += 1
            let header = try reader.read(at: offset, count: 8)
            guard header.count == 8 else { break }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            let size = Int64(header.le32(4))
            let body = offset + 8
            switch id {
            case "fmt ":
                let f = try reader.read(at: body, count: Int(min(size, 64)))
                guard f.count >= 16 else { throw MediaError.corrupt(path, "fmt chunk is \(f.count) bytes, needs 16") }
                var tag = f.le16(0)
                if tag == Self.extensibleTag, f.count >= 26 { tag = f.le16(24) }
                format = (tag, Int(f.le16(2)), Int(f.le32(4)), Int(f.le16(12)), Int(f.le16(14)))
            case "data":
                data = (body, size)
            case "LIST":
                let list = try reader.read(at: body, count: Int(min(size, 64 * 1024)))
                metadata.fillGaps(from: RIFFInfo.metadata(list))
            default:
                break
            }
            offset = body + size + (size & 1)
        }
        guard let format else { throw MediaError.corrupt(path, "no fmt chunk") }
        guard let data else { throw MediaError.corrupt(path, "no data chunk") }
        guard format.tag == Self.pcmTag else {
            throw MediaError.unsupported(path, format.tag == 3 ? "floating-point WAV" : "WAV encoding 0x\(String(format.tag, radix: 16))")
        }
        guard format.channels > 0, format.bits > 0,
              let sampleFormat = SampleFormat(containing: format.bits == 8 ? 16 : format.bits) else {
            throw MediaError.unsupported(path, "\(format.bits)-bit, \(format.channels)-channel WAV")
        }
        let containerBytes = (format.bits + 7) / 8
        guard format.blockAlign == containerBytes * format.channels, containerBytes == sampleFormat.bytesPerSample || format.bits == 8 else {
            throw MediaError.unsupported(path, "WAV block align \(format.blockAlign) for \(format.bits)-bit \(format.channels)-channel audio")
        }
        eightBit = format.bits == 8
        sourceFrameBytes = format.blockAlign
        dataOffset = data.offset
        let available = reader.size - data.offset
        var dataBytes = data.size
        // Streaming writers leave the size 0 or 0xFFFFFFFF; others were cut short.
        if data.size == 0 || data.size == 0xFFFF_FFFF {
            dataBytes = available
        } else if data.size > available {
            throw MediaError.truncated(path, "data chunk declares \(data.size) bytes, the file holds \(available)")
        }
        info = try StreamInfo(sampleRate: format.rate, channels: format.channels, sampleFormat: sampleFormat,
                              totalFrames: dataBytes / Int64(sourceFrameBytes)).validated(path)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let frames = Int(min(Int64(buffer.count / info.bytesPerFrame), info.totalFrames - position))
        guard frames > 0 else { return 0 }
        let at = dataOffset + position * Int64(sourceFrameBytes)
        let got: Int
        if eightBit {
            if scratch.count < frames * sourceFrameBytes { scratch = [UInt8](repeating: 0, count: frames * sourceFrameBytes) }
            let bytes = try scratch.withUnsafeMutableBytes {
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(frames * sourceFrameBytes)]), at: at)
            }
            let out = buffer.baseAddress!.assumingMemoryBound(to: Int16.self)
            for i in 0..<bytes { out[i] = Int16(Int(scratch[i]) - 128) << 8 }
            got = bytes / sourceFrameBytes
        } else {
            let bytes = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(frames * sourceFrameBytes)]), at: at)
            got = bytes / sourceFrameBytes
        }
        position += Int64(got)
        return got
    }

    func seek(toFrame frame: Int64) throws {
        position = max(0, min(frame, info.totalFrames))
    }
}
