/// libvorbisfile's `OV_*` and libopusfile's `OP_*` codes, which share their numbers, as
/// words: the one place they become a reason a person can read.
enum OggStatus {
    static func describe(_ code: Int) -> String {
        switch code {
        case -1: "a request did not succeed"
        case -2: "unexpected end of the stream"
        case -3: "a page is missing or damaged"
        case -128: "a read failed"
        case -129: "out of memory or an internal library error"
        case -130: "a feature this file uses is not implemented"
        case -131: "an invalid request"
        case -132: "not Vorbis or Opus data"
        case -133: "a damaged header packet"
        case -134: "an unsupported stream version"
        case -135: "not an audio packet"
        case -136: "a damaged audio packet"
        case -137: "a damaged link between chained streams"
        case -138: "the stream cannot be sought in"
        case -139: "a damaged timestamp"
        default: "error \(code)"
        }
    }
}
