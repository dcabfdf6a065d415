import COpus

/// The comment header of a Vorbis or Opus stream (`vorbis_comment` and `OpusTags` share
/// its layout) to track metadata: text through `VorbisComments`, covers from
/// `METADATA_BLOCK_PICTURE` (a FLAC PICTURE block in base64, as libopusfile's
/// `opus_picture_tag_parse` reads it; the format is the same in a Vorbis stream).
///
/// The libraries hold the whole header in memory already (bounded by the reader's open
/// budget); what we copy out of it is bounded by `TagLimits`.
enum OggComments {
    /// A `METADATA_BLOCK_PICTURE` whose base64 would decode past the largest cover kept
    /// is skipped undecoded: a description and a MIME type are small.
    static let maximumPictureTagBytes = (TagLimits.maximumPictureBytes + TagLimits.maximumTextFrameBytes) / 3 * 4

    static func metadata(comments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                         lengths: UnsafeMutablePointer<Int32>?, count: Int32,
                         warnings: inout DecodeWarnings) -> TrackMetadata {
        guard let comments, let lengths, count > 0 else { return TrackMetadata() }
        var entries: [String] = []
        var pictures: [EmbeddedPicture] = []
        for i in 0..<Int(count) {
            guard let text = comments[i], lengths[i] > 0 else { continue }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(lengths[i]))
            if hasName(bytes, "METADATA_BLOCK_PICTURE=") {
                guard pictures.count < TagLimits.maximumPictures else { continue }
                guard bytes.count <= maximumPictureTagBytes + 32 else {
                    warnings.add("a cover of \(bytes.count / 4 * 3 >> 20) MiB was not kept (the limit is \(TagLimits.maximumPictureBytes >> 20) MiB)")
                    continue
                }
                if let picture = picture(text) { pictures.append(picture) } else { warnings.add("a METADATA_BLOCK_PICTURE that is damaged or only a link was skipped") }
            } else if bytes.count <= TagLimits.maximumLyricsBytes {
                entries.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        var metadata = VorbisComments.metadata(from: entries)
        metadata.pictures = pictures
        return metadata
    }

    /// Whether the comment starts with `name` (given in upper case), in any case.
    private static func hasName(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: count)
        for i in 0..<count {
            var b = bytes[i]
            if b >= 0x61, b <= 0x7A { b -= 0x20 }
            if b != expected[i] { return false }
        }
        return true
    }

    private static func picture(_ tag: UnsafePointer<CChar>) -> EmbeddedPicture? {
        var parsed = OpusPictureTag()
        opus_picture_tag_init(&parsed)
        defer { opus_picture_tag_clear(&parsed) }
        guard opus_picture_tag_parse(&parsed, tag) == 0, parsed.data_length <= TagLimits.maximumPictureBytes,
              parsed.format != OP_PIC_FORMAT_URL  // a link to a picture elsewhere: nothing to show
        else { return nil }
        return EmbeddedPicture(
            type: Int(parsed.type),
            mimeType: parsed.mime_type.map { String(cString: $0) } ?? "",
            description: parsed.description.map { String(cString: $0) } ?? "",
            data: parsed.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(parsed.data_length))) } ?? [])
    }
}
