#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The current song as Snapcast's metadata, read from the box's `currentsong`, and
/// the song's identity, so metadata is sent only when the song changes.
public struct SnapcastMetadata: Equatable, Sendable {
    /// A picture for `artData`: its bytes and file extension.
    public struct Art: Equatable, Sendable {
        public var data: [UInt8]
        public var fileExtension: String

        public init(data: [UInt8], fileExtension: String) {
            self.data = data
            self.fileExtension = fileExtension
        }

        /// The picture's kind from MPD's `type:` or, lacking one (`albumart`), its first
        /// bytes; nil for a kind a web page may not show.
        public static func fileExtension(type: String?, data: [UInt8]) -> String? {
            switch type?.lowercased() {
            case "image/jpeg", "image/jpg": return "jpg"
            case "image/png": return "png"
            case "image/gif": return "gif"
            case "image/webp": return "webp"
            default: break
            }
            if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
            if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
            if data.starts(with: Array("GIF8".utf8)) { return "gif" }
            if data.count >= 12, data[8..<12].elementsEqual("WEBP".utf8), data.starts(with: Array("RIFF".utf8)) { return "webp" }
            return nil
        }
    }

    private enum Kind { case text, list, number, seconds }

    /// MPD's tag names and the Snapcast (MPRIS) names they become.
    private static let tags: [(mpd: String, snapcast: String, kind: Kind)] = [
        ("file", "url", .text), ("Id", "trackId", .text), ("Title", "title", .text), ("Name", "name", .text),
        ("Artist", "artist", .list), ("ArtistSort", "artistSort", .list),
        ("Album", "album", .text), ("AlbumSort", "albumSort", .text),
        ("AlbumArtist", "albumArtist", .list), ("AlbumArtistSort", "albumArtistSort", .list),
        ("Genre", "genre", .list), ("Composer", "composer", .list), ("Comment", "comment", .list),
        ("Date", "contentCreated", .text), ("OriginalDate", "originalDate", .text),
        ("Performer", "performer", .text), ("Conductor", "conductor", .text), ("Work", "work", .text),
        ("Grouping", "grouping", .text), ("Label", "label", .text),
        ("Track", "trackNumber", .number), ("Disc", "discNumber", .number),
        ("duration", "duration", .seconds),
        ("MUSICBRAINZ_ARTISTID", "musicbrainzArtistId", .text), ("MUSICBRAINZ_ALBUMID", "musicbrainzAlbumId", .text),
        ("MUSICBRAINZ_ALBUMARTISTID", "musicbrainzAlbumArtistId", .text), ("MUSICBRAINZ_TRACKID", "musicbrainzTrackId", .text),
        ("MUSICBRAINZ_RELEASETRACKID", "musicbrainzReleaseTrackId", .text), ("MUSICBRAINZ_WORKID", "musicbrainzWorkId", .text),
    ]

    public let song: MPDFields
    public var art: Art?

    public init(song: MPDFields, art: Art? = nil) {
        self.song = song
        self.art = art
    }

    /// The song's place and file: another song, or the same file queued again, is a new
    /// track for Snapcast; an empty queue is none.
    public var identity: String? {
        guard let file = song["file"] else { return nil }
        return (song["Id"] ?? "") + "\u{0}" + file
    }

    /// The metadata object; empty when nothing is current.
    public var json: [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for tag in Self.tags {
            let values = song.all(tag.mpd)
            guard let first = values.first else { continue }
            switch tag.kind {
            case .text: out[tag.snapcast] = .string(first)
            case .list: out[tag.snapcast] = .array(values.map(JSONValue.string))
            // "3/12" is track 3; Snapcast reads a small unsigned number.
            case .number:
                if let n = Int(first.split(separator: "/").first ?? ""), (0...65535).contains(n) { out[tag.snapcast] = .int(n) }
            case .seconds:
                if let s = Double(first), s.isFinite, s >= 0 { out[tag.snapcast] = .double(s) }
            }
        }
        if out["duration"] == nil, let time = song["Time"].flatMap({ Int($0) }), time > 0 { out["duration"] = .double(Double(time)) }
        if let art {
            out["artData"] = .object(["data": .string(Data(art.data).base64EncodedString()), "extension": .string(art.fileExtension)])
        }
        return out
    }
}
