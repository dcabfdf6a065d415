import CFFmpeg

/// FFmpeg's decoded samples (AAC's planar float, ALAC's planar 16 or 32-bit) to the
/// interleaved little-endian integers every decoder produces. This runs for every sample
/// of every MP4 file, so it works on raw pointers, one channel at a time.
enum SampleConversion {
    case float(planar: Bool)
    case int16(planar: Bool)
    case int32(planar: Bool)

    /// `AVFrame.format`, an AVSampleFormat (whose names Swift does not import: the values
    /// are FFmpeg's stable ABI).
    init?(_ format: Int32) {
        switch format {
        case 8: self = .float(planar: true)  // AV_SAMPLE_FMT_FLTP
        case 3: self = .float(planar: false)  // AV_SAMPLE_FMT_FLT
        case 6: self = .int16(planar: true)  // AV_SAMPLE_FMT_S16P
        case 1: self = .int16(planar: false)  // AV_SAMPLE_FMT_S16
        case 7: self = .int32(planar: true)  // AV_SAMPLE_FMT_S32P
        case 2: self = .int32(planar: false)  // AV_SAMPLE_FMT_S32
        default: return nil
        }
    }

    private var planar: Bool {
        switch self {
        case .float(let p), .int16(let p), .int32(let p): p
        }
    }

    /// `count` samples of each channel from sample `first` of `frame`, into `out`.
    func convert(_ frame: UnsafePointer<AVFrame>, from first: Int, count: Int, channels: Int,
                 to format: SampleFormat, into out: UnsafeMutableRawPointer) {
        for c in 0..<channels {
            // A planar frame has a plane per channel; a packed one interleaves them in one.
            let plane = UnsafeRawPointer((planar ? frame.pointee.extended_data[c] : frame.pointee.extended_data[0])!)
            let step = planar ? 1 : channels
            let offset = planar ? first : first * channels + c
            switch (self, format) {
            case (.float, _):
                // As FFmpeg's own conversion (libswresample): ×32768, to nearest, clipped.
                let src = plane.assumingMemoryBound(to: Float.self) + offset
                let dst = out.assumingMemoryBound(to: Int16.self) + c
                for i in 0..<count {
                    let v = (src[i * step] * 32768).rounded(.toNearestOrEven)
                    dst[i * channels] = Int16(max(-32768, min(32767, v))).littleEndian
                }
            case (.int16, _):
                let src = plane.assumingMemoryBound(to: Int16.self) + offset
                let dst = out.assumingMemoryBound(to: Int16.self) + c
                for i in 0..<count { dst[i * channels] = src[i * step].littleEndian }
            case (.int32, .s24):
                // libavcodec left-aligns 20 and 24-bit ALAC in 32 bits.
                let src = plane.assumingMemoryBound(to: Int32.self) + offset
                var dst = out.assumingMemoryBound(to: UInt8.self) + 3 * c
                for i in 0..<count {
                    let v = UInt32(bitPattern: src[i * step]) >> 8
                    dst[0] = UInt8(truncatingIfNeeded: v)
                    dst[1] = UInt8(truncatingIfNeeded: v >> 8)
                    dst[2] = UInt8(truncatingIfNeeded: v >> 16)
                    dst += 3 * channels
                }
            case (.int32, .s16):
                let src = plane.assumingMemoryBound(to: Int32.self) + offset
                let dst = out.assumingMemoryBound(to: Int16.self) + c
                for i in 0..<count { dst[i * channels] = Int16(truncatingIfNeeded: src[i * step] >> 16).littleEndian }
            case (.int32, .s32):
                let src = plane.assumingMemoryBound(to: Int32.self) + offset
                let dst = out.assumingMemoryBound(to: Int32.self) + c
                for i in 0..<count { dst[i * channels] = src[i * step].littleEndian }
            }
        }
    }
}
