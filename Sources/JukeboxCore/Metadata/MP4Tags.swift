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
            if name == "lyrics" {
                if raw.nonEmptyTrimmed != nil { m.lyrics.append(EmbeddedLyrics(origin: .mp4Lyrics, text: raw)) }
                continue
            }
            guard let value = raw.nonEmptyTrimmed else { continue }
            // Freeform atoms (`----` com.apple.iTunes:replaygain_track_gain, iTunNORM)
            // arrive under their own names.
            if m.replayGain.take(tag: name, value: value) { continue }
            switch name {
            case "title": m.title = value
            case "artist": m.artist = value
            case "album": m.album = value
            case "album_artist": m.albumArtist = value
            case "track": (m.trackNumber, m.trackTotal) = TrackMetadata.numberPair(value)
            case "disc": (m.discNumber, m.discTotal) = TrackMetadata.numberPair(value)
            case "date": m.date = value
            case "genre": m.genre = value
            case "composer": m.composer = value
            default: break
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

    /// The chapter list, in frames at `sampleRate`, each ending where the next starts.
    static func chapters(_ format: UnsafeMutablePointer<AVFormatContext>, sampleRate: Int, totalFrames: Int64) -> [Chapter] {
        var list: [Chapter] = []
        for i in 0..<Int(format.pointee.nb_chapters) {
            let chapter = format.pointee.chapters[i]!.pointee
            let base = chapter.time_base
            guard base.num > 0, base.den > 0 else { continue }
            func frame(_ t: Int64) -> Int64 {
                max(0, min(totalFrames, Int64((Double(t) * Double(base.num) * Double(sampleRate) / Double(base.den)).rounded())))
            }
            let title = jukebox_av_dict_value(chapter.metadata, "title").map { text($0) }?.nonEmptyTrimmed ?? "Chapter \(i + 1)"
            list.append(Chapter(title: title, startFrame: frame(chapter.start), endFrame: frame(chapter.end)))
        }
        list.sort { $0.startFrame < $1.startFrame }
        for i in list.indices.dropLast() where list[i].endFrame <= list[i].startFrame || list[i].endFrame > list[i + 1].startFrame {
            list[i].endFrame = list[i + 1].startFrame
        }
        if let last = list.indices.last, list[last].endFrame <= list[last].startFrame { list[last].endFrame = totalFrames }
        return list
    }

    /// A value capped at the size of any real tag (libavformat has it whole already).
    private static func text(_ value: UnsafePointer<CChar>) -> String {
        let length = strnlen(value, TagLimits.maximumLyricsBytes)
        return String(decoding: UnsafeRawBufferPointer(start: value, count: length), as: UTF8.self)
    }
}
