import CFlac

/// libFLAC's status codes in words: the one place its enums become messages.
enum FLACStatus {
    static func describe(_ status: FLAC__StreamDecoderInitStatus) -> String {
        switch status {
        case FLAC__STREAM_DECODER_INIT_STATUS_ERROR_OPENING_FILE: "libFLAC could not open the file"
        case FLAC__STREAM_DECODER_INIT_STATUS_MEMORY_ALLOCATION_ERROR: "out of memory"
        case FLAC__STREAM_DECODER_INIT_STATUS_UNSUPPORTED_CONTAINER: "unsupported container"
        default: "libFLAC init status \(status.rawValue)"
        }
    }

    static func describe(_ state: FLAC__StreamDecoderState) -> String {
        switch state {
        case FLAC__STREAM_DECODER_SEARCH_FOR_METADATA, FLAC__STREAM_DECODER_READ_METADATA: "bad or missing metadata"
        case FLAC__STREAM_DECODER_SEARCH_FOR_FRAME_SYNC, FLAC__STREAM_DECODER_READ_FRAME: "lost frame sync"
        case FLAC__STREAM_DECODER_END_OF_STREAM: "end of stream"
        case FLAC__STREAM_DECODER_OGG_ERROR: "Ogg layer error"
        case FLAC__STREAM_DECODER_SEEK_ERROR: "seek error"
        case FLAC__STREAM_DECODER_ABORTED: "decoding aborted"
        case FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR: "out of memory"
        default: "decoder state \(state.rawValue)"
        }
    }

    static func describe(_ status: FLAC__StreamDecoderErrorStatus) -> String {
        switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "lost sync"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "bad frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: "frame CRC mismatch"
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "unparseable stream"
        default: "decoder error \(status.rawValue)"
        }
    }
}
