import CFlac

/// Writes interleaved 16-bit PCM to a FLAC file with Vorbis comments, through libFLAC's
/// stream encoder (used for the demo library).
public final class FLACFileWriter {
    private let encoder: UnsafeMutablePointer<FLAC__StreamEncoder>
    private var comments: UnsafeMutablePointer<FLAC__StreamMetadata>?
    private let path: String
    private let channels: Int

    public init(path: String, sampleRate: Int, channels: Int, tags: [(String, String)]) throws {
        guard let encoder = FLAC__stream_encoder_new() else { throw MediaError.unreadable(path, "libFLAC could not allocate an encoder") }
        self.encoder = encoder
        self.path = path
        self.channels = channels
        FLAC__stream_encoder_set_channels(encoder, UInt32(channels))
        FLAC__stream_encoder_set_bits_per_sample(encoder, 16)
        FLAC__stream_encoder_set_sample_rate(encoder, UInt32(sampleRate))
        FLAC__stream_encoder_set_compression_level(encoder, 5)
        comments = FLAC__metadata_object_new(FLAC__METADATA_TYPE_VORBIS_COMMENT)
        for (name, value) in tags {
            var entry = FLAC__StreamMetadata_VorbisComment_Entry()
            guard FLAC__metadata_object_vorbiscomment_entry_from_name_value_pair(&entry, name, value) != 0,
                  FLAC__metadata_object_vorbiscomment_append_comment(comments, entry, 0) != 0 else {
                throw MediaError.unsupported(path, "tag \(name) could not be stored")
            }
        }
        var blocks: [UnsafeMutablePointer<FLAC__StreamMetadata>?] = [comments]
        FLAC__stream_encoder_set_metadata(encoder, &blocks, 1)
        let status = FLAC__stream_encoder_init_file(encoder, path, nil, nil)
        guard status == FLAC__STREAM_ENCODER_INIT_STATUS_OK else {
            throw MediaError.unreadable(path, "libFLAC cannot write this file (encoder status \(status.rawValue))")
        }
    }

    deinit {
        FLAC__stream_encoder_delete(encoder)
        if let comments { FLAC__metadata_object_delete(comments) }
    }

    public func write(_ samples: [Int16]) throws {
        let wide = samples.map { Int32($0) }
        let ok = wide.withUnsafeBufferPointer {
            FLAC__stream_encoder_process_interleaved(encoder, $0.baseAddress, UInt32(samples.count / channels))
        }
        guard ok != 0 else { throw MediaError.unreadable(path, "libFLAC failed while encoding") }
    }

    public func finish() throws {
        guard FLAC__stream_encoder_finish(encoder) != 0 else { throw MediaError.unreadable(path, "libFLAC failed to finish the file") }
    }
}
