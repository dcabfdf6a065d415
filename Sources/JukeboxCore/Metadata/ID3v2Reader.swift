/// Reads an ID3v2 tag (v2.2, v2.3, v2.4) at the start of a file one frame at a time:
/// each frame header is read, frames that are kept are read up to their cap, and the
/// rest are stepped over unread. Memory is a small constant plus what is kept, whatever
/// the tag's size (a 250 MiB tag once cost 1.29 GB through libmpg123's reader).
///
/// Handles v2.2's 6-byte frame headers, v2.3's plain and v2.4's synchsafe frame sizes,
/// the extended header, unsynchronisation of the whole tag (v2.2/v2.3) or of one frame
/// (v2.4), grouping bytes and data length indicators. Compressed or encrypted frames
/// are skipped.
enum ID3v2Reader {
    static func metadata(in source: some TagBytes, mpegFrameSeconds: Double) throws -> TrackMetadata? {
        guard let header = ID3v2Header(try source.read(at: 0, count: 10)),
              (2...4).contains(header.majorVersion) else { return nil }
        let version = header.majorVersion
        let bodyEnd = min(source.size, 10 + Int64(header.bodySize))
        if header.unsynchronised && version < 4 {
            guard header.bodySize <= TagLimits.maximumUnsynchronisedTagBytes else { return nil }
            let body = ID3v2Frames.removeUnsynchronisation(try source.read(at: 10, count: header.bodySize))
            let inMemory = InMemoryTagBytes(bytes: body)
            return try walk(inMemory, from: 0, to: inMemory.size, header: header, mpegFrameSeconds: mpegFrameSeconds)
        }
        return try walk(source, from: 10, to: bodyEnd, header: header, mpegFrameSeconds: mpegFrameSeconds)
    }

    private static func walk(_ body: some TagBytes, from start: Int64, to end: Int64, header: ID3v2Header,
                             mpegFrameSeconds: Double) throws -> TrackMetadata {
        let version = header.majorVersion
        var i = start
        if header.flags & 0x40 != 0, version >= 3 {
            let b = try body.read(at: i, count: 4)
            guard b.count == 4 else { return TrackMetadata() }
            // v2.4 counts the size field in the extended header's size; v2.3 does not.
            i += version == 4 ? Int64(ID3v2Frames.synchsafe(b, 0)) : Int64(ID3v2Frames.bigEndian(b, 0)) + 4
        }
        let headerLength: Int64 = version == 2 ? 6 : 10
        var m = TrackMetadata()
        var walked = 0
        while i + headerLength <= end, walked < TagLimits.maximumFrames {
            walked += 1
            let h = try body.read(at: i, count: Int(headerLength))
            guard h.count == Int(headerLength), h[0] != 0 else { break }
            let size: Int
            switch version {
            case 2: size = Int(h[3]) << 16 | Int(h[4]) << 8 | Int(h[5])
            case 3: size = ID3v2Frames.bigEndian(h, 4)
            default: size = ID3v2Frames.synchsafe(h, 4)
            }
            let dataStart = i + headerLength
            guard size >= 0, dataStart + Int64(size) <= end else { break }
            i = dataStart + Int64(size)
            let id = String(decoding: h[0..<(version == 2 ? 3 : 4)], as: UTF8.self)
            guard let kind = FrameKind(id: id), size <= kind.limit else { continue }
            let format: FrameFormat = version == 2 ? FrameFormat() : FrameFormat(version: version, flags: h[9])
            guard !format.compressedOrEncrypted else { continue }
            guard let data = format.unwrap(try body.read(at: dataStart, count: size)) else { continue }
            if kind == .chapter {
                if let mark = ID3Chapter.mark(data, version: version) { m.chapterMarks.append(mark) }
                continue
            }
            kind.apply(data, to: &m, mpegFrameSeconds: mpegFrameSeconds)
        }
        return m
    }
}

/// The per-frame format flags of v2.3 and v2.4 (second flag byte).
private struct FrameFormat {
    var grouped = false
    var compressedOrEncrypted = false
    var unsynchronised = false
    var dataLengthIndicator = false

    init() {}

    init(version: UInt8, flags: UInt8) {
        if version == 3 {
            compressedOrEncrypted = flags & 0xC0 != 0
            grouped = flags & 0x20 != 0
        } else {
            grouped = flags & 0x40 != 0
            compressedOrEncrypted = flags & 0x0C != 0
            unsynchronised = flags & 0x02 != 0
            dataLengthIndicator = flags & 0x01 != 0
        }
    }

    /// The frame's content without group byte, length indicator and unsynchronisation.
    func unwrap(_ frame: [UInt8]) -> [UInt8]? {
        let skip = (grouped ? 1 : 0) + (dataLengthIndicator ? 4 : 0)
        guard frame.count >= skip else { return nil }
        let content = skip == 0 ? frame : Array(frame[skip...])
        return unsynchronised ? ID3v2Frames.removeUnsynchronisation(content) : content
    }
}

/// The frames kept, by their v2.3/v2.4 name or their v2.2 one.
private enum FrameKind: Equatable {
    /// A text frame holding one tag: one value, or several separated by NULs (v2.4).
    case text(MPDTag)
    case unsyncedLyrics, syncedLyrics, picture, legacyPicture
    /// A user-defined text (TXXX): ReplayGain, MusicBrainz ids and other tags by name.
    case userText
    /// A unique file identifier (UFID): MusicBrainz's is the recording's id.
    case fileIdentifier
    /// A chapter (CHAP, ID3v2 chapter addendum): its start and title.
    case chapter

    init?(id: String) {
        switch id {
        case "USLT", "ULT": self = .unsyncedLyrics
        case "SYLT", "SLT": self = .syncedLyrics
        case "APIC": self = .picture
        case "PIC": self = .legacyPicture
        case "TXXX", "TXX": self = .userText
        case "UFID", "UFI": self = .fileIdentifier
        case "CHAP": self = .chapter
        default:
            guard let tag = Self.textFrames[id] else { return nil }
            self = .text(tag)
        }
    }

    /// Text frames and the tags they hold, as MPD reads them (v2.2's three-letter names too).
    private static let textFrames: [String: MPDTag] = [
        "TIT2": .title, "TT2": .title, "TPE1": .artist, "TP1": .artist, "TALB": .album, "TAL": .album,
        "TPE2": .albumArtist, "TP2": .albumArtist, "TRCK": .track, "TRK": .track, "TPOS": .disc, "TPA": .disc,
        "TDRC": .date, "TYER": .date, "TYE": .date, "TDOR": .originalDate, "TORY": .originalDate, "TOR": .originalDate,
        "TCON": .genre, "TCO": .genre, "TCOM": .composer, "TCM": .composer, "TSOP": .artistSort, "TSOA": .albumSort,
        "TSO2": .albumArtistSort, "TSOC": .composerSort, "TPE3": .conductor, "TP3": .conductor, "TPE4": .performer,
        "TP4": .performer, "TIT1": .grouping, "TT1": .grouping, "TPUB": .label, "TPB": .label,
        "MVNM": .movement, "MVIN": .movementNumber, "TMOO": .mood, "TSOT": .titleSort,
    ]

    /// The user texts MPD reads as MusicBrainz ids.
    private static let musicBrainzTexts: Set = [
        "MusicBrainz Artist Id", "MusicBrainz Album Id", "MusicBrainz Album Artist Id", "MusicBrainz Track Id",
        "MusicBrainz Release Track Id", "MusicBrainz Work Id", "MusicBrainz Release Group Id",
    ]

    var limit: Int {
        switch self {
        case .picture, .legacyPicture: TagLimits.maximumPictureBytes + 1024  // room for MIME and description
        case .unsyncedLyrics, .syncedLyrics: TagLimits.maximumLyricsBytes
        case .chapter: 1 << 20  // room for a chapter's own picture, which is not kept
        default: TagLimits.maximumTextFrameBytes
        }
    }

    func apply(_ frame: [UInt8], to m: inout TrackMetadata, mpegFrameSeconds: Double) {
        switch self {
        case .unsyncedLyrics:
            guard frame.count >= 4 else { return }
            var i = 4  // encoding, language
            _ = ID3Text.terminated(frame, &i, encoding: frame[0])  // content descriptor
            let text = ID3Text.terminated(frame, &i, encoding: frame[0])
            if text.nonEmptyTrimmed != nil { m.lyrics.append(EmbeddedLyrics(origin: .id3USLT, text: text)) }
        case .syncedLyrics:
            if let lyrics = SYLT.lrcText(from: frame, mpegFrameSeconds: mpegFrameSeconds) { m.lyrics.append(lyrics) }
        case .picture:
            if let picture = Self.picture(frame) { m.pictures.append(picture) }
        case .legacyPicture:
            if let picture = LegacyPicture.parse(frame) { m.pictures.append(picture) }
        case .userText:
            guard let encoding = frame.first else { return }
            var i = 1
            let name = ID3Text.terminated(frame, &i, encoding: encoding)
            let value = ID3Text.terminated(frame, &i, encoding: encoding)
            // As MPD lists them: every user text but its MusicBrainz ids, which are tags only.
            if !name.isEmpty, !Self.musicBrainzTexts.contains(name), m.rawTags.count < TagLimits.maximumTagValues {
                m.rawTags.append(RawTag(name: name, value: value))
            }
            if m.replayGain.take(tag: name, value: value) { return }
            if let tag = MPDTag(commentName: name), let value = value.nonEmptyTrimmed { m.add(tag, value) }
        case .fileIdentifier:
            var i = 0
            guard ID3Text.terminated(frame, &i, encoding: 0) == "http://musicbrainz.org", i < frame.count,
                  let id = String(decoding: frame[i...], as: UTF8.self).nonEmptyTrimmed else { return }
            m.add(.musicBrainzTrackID, id)
        case .text(let tag):
            guard let encoding = frame.first else { return }
            var i = 1
            // Every value: v2.4 separates several with NULs (two artists, two genres).
            while i < frame.count {
                guard let value = ID3Text.terminated(frame, &i, encoding: encoding).nonEmptyTrimmed else { continue }
                m.add(tag, tag == .genre ? ID3Genres.resolve(value) : value)
            }
        case .chapter:
            break
        }
    }

    /// APIC: encoding, MIME type (Latin-1), picture type, description, data.
    private static func picture(_ frame: [UInt8]) -> EmbeddedPicture? {
        guard frame.count >= 4 else { return nil }
        var i = 1
        let mime = ID3Text.terminated(frame, &i, encoding: 0)
        guard i < frame.count else { return nil }
        let type = Int(frame[i])
        i += 1
        let description = ID3Text.terminated(frame, &i, encoding: frame[0])
        return EmbeddedPicture(type: type, mimeType: mime, description: description, data: Array(frame[min(i, frame.count)...]))
    }
}

/// Tags of an MP3 file: ID3v2 at the start, ID3v1 in the last 128 bytes filling gaps
/// (unless `readingTheEnd` is false: a download's end is the last byte to arrive).
enum MP3Tags {
    static func metadata(in source: some TagBytes, mpegFrameSeconds: Double, readingTheEnd: Bool = true) throws -> TrackMetadata {
        var m = try ID3v2Reader.metadata(in: source, mpegFrameSeconds: mpegFrameSeconds) ?? TrackMetadata()
        if readingTheEnd, source.size >= 128, let old = ID3v1.metadata(try source.read(at: source.size - 128, count: 128)) {
            m.fillGaps(from: old)
        }
        return m
    }
}
