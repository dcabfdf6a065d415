/// Planar 32-bit samples (libFLAC's block layout) to interleaved little-endian PCM.
/// This runs for every sample of every FLAC file, so it works on raw pointers and keeps
/// the common stereo 16-bit case in its own tight loop.
enum PCMInterleave {
    static func interleave(_ planes: UnsafePointer<UnsafePointer<Int32>?>, frames: Int, channels: Int,
                           shift: Int32, format: SampleFormat, into out: UnsafeMutableRawPointer) {
        switch format {
        case .s16:
            let dst = out.assumingMemoryBound(to: Int16.self)
            if channels == 2, shift == 0, let l = planes[0], let r = planes[1] {
                for i in 0..<frames {
                    dst[2 * i] = Int16(truncatingIfNeeded: l[i]).littleEndian
                    dst[2 * i + 1] = Int16(truncatingIfNeeded: r[i]).littleEndian
                }
                return
            }
            for c in 0..<channels {
                guard let src = planes[c] else { continue }
                for i in 0..<frames { dst[i * channels + c] = Int16(truncatingIfNeeded: src[i] << shift).littleEndian }
            }
        case .s24:
            let dst = out.assumingMemoryBound(to: UInt8.self)
            for c in 0..<channels {
                guard let src = planes[c] else { continue }
                var p = dst + 3 * c
                let stride = 3 * channels
                for i in 0..<frames {
                    let v = UInt32(bitPattern: src[i] << shift)
                    p[0] = UInt8(truncatingIfNeeded: v)
                    p[1] = UInt8(truncatingIfNeeded: v >> 8)
                    p[2] = UInt8(truncatingIfNeeded: v >> 16)
                    p += stride
                }
            }
        case .s32:
            let dst = out.assumingMemoryBound(to: Int32.self)
            for c in 0..<channels {
                guard let src = planes[c] else { continue }
                for i in 0..<frames { dst[i * channels + c] = (src[i] << shift).littleEndian }
            }
        }
    }
}
