import CFFmpeg
import CJukeboxShim

/// An MP4's iTunes atoms (`©nam`, `©ART`, `aART`, `trkn`, `disk`, `covr`, `----`...) as
/// libavformat's mov demuxer gives them (its metadata under its own names, a cover as an
/// attached picture stream) and its chapters, in the one tag model.
enum MP4Tags {
    static func metadata(_ format: UnsafeMutablePointer<AVFormatContext>) -> TrackMetadata {
        var m = TrackMetadata()
        var entry = jukebox_av_dict_next(format.pointee.metadata, nil)
        while let current = entry {
            entry = jukebox_av_dict_next(format.pointee.metadata, current)
            let name = String(cString: current.pointee.key)
            let raw = text(current.pointee.value)
            m.rawTags.append(RawTag(name: name, value: raw))
            if name == "lyrics" {
                if raw.nonEmptyTrimmed != nil { m.lyrics.append(EmbeddedLyrics(origin: .mp4Lyrics, text: raw)) }
                continue
            }
            guard let value = raw.nonEmptyTrimmed else { continue }
            // Freeform atoms (`----` com.apple.iTunes:replaygain_track_gain, iTunNORM)
            // arrive under their own names.
            if m.replayGain.take(tag: name, value: value) { continue }
            if let tag = Self.tag(name) { m.add(tag, value) }
        }
        // MPD's `readcomments` lists the audio stream's metadata after the file's.
        if let audio = (0..<Int(format.pointee.nb_streams)).first(where: { format.pointee.streams[$0]!.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }) {
            var entry = jukebox_av_dict_next(format.pointee.streams[audio]!.pointee.metadata, nil)
            while let current = entry {
                entry = jukebox_av_dict_next(format.pointee.streams[audio]!.pointee.metadata, current)
                m.rawTags.append(RawTag(name: String(cString: current.pointee.key), value: text(current.pointee.value)))
            }
        }
        for i in 0..<Int(format.pointee.nb_streams) {
            let stream = format.pointee.streams[i]!.pointee
            guard stream.disposition & AV_DISPOSITION_ATTACHED_PIC != 0,
                  let data = stream.attached_pic.data, stream.attached_pic.size > 0,
                  Int(stream.attached_pic.size) <= TagLimits.maximumPictureBytes else { continue }
            let mime = stream.codecpar.pointee.codec_id == AV_CODEC_ID_PNG ? "image/png" : "image/jpeg"
            m.pictures.append(EmbeddedPicture(type: EmbeddedPicture.frontCover, mimeType: mime, description: "",
                                              data: Array(UnsafeBufferPointer(start: data, count: Int(stream.attached_pic.size)))))
        }
        return m
    }

    /// Where each chapter starts (Nero `chpl` and QuickTime chapter tracks alike, as
    /// libavformat lists them), as exact fractions of a second of its time base.
    static func chapterMarks(_ format: UnsafeMutablePointer<AVFormatContext>) -> [ChapterMark] {
        var marks: [ChapterMark] = []
        for i in 0..<min(Int(format.pointee.nb_chapters), TagLimits.maximumChapters) {
            let chapter = format.pointee.chapters[i]!.pointee
            let base = chapter.time_base
            guard base.num > 0, base.den > 0, chapter.start >= 0, chapter.start < Int64.max / Int64(base.num) else { continue }
            let title = jukebox_av_dict_value(chapter.metadata, "title").map { text($0) }?.nonEmptyTrimmed
            marks.append(ChapterMark(title: title, count: chapter.start * Int64(base.num), perSecond: Int64(base.den)))
        }
        return marks
    }

    /// The tag a libavformat metadata key holds: its names for the iTunes atoms, and a
    /// freeform atom's own name (`MusicBrainz Album Id`, `LABEL`).
    private static func tag(_ key: String) -> MPDTag? {
        switch key {
        case "title": .title
        case "artist": .artist
        case "album": .album
        case "album_artist": .albumArtist
        case "track": .track
        case "disc": .disc
        case "date": .date
        case "genre": .genre
        case "composer": .composer
        case "grouping": .grouping
        case "sort_artist": .artistSort
        case "sort_album": .albumSort
        case "sort_album_artist": .albumArtistSort
        case "sort_composer": .composerSort
        case "sort_name": .titleSort
        default: MPDTag(commentName: key)
        }
    }

    /// A value capped at the size of any real tag (libavformat has it whole already).
    private static func text(_ value: UnsafePointer<CChar>) -> String {
        let length = strnlen(value, TagLimits.maximumLyricsBytes)
        return String(decoding: UnsafeRawBufferPointer(start: value, count: length), as: UTF8.self)
    }
}
