import Foundation
import Testing
@testable import JukeboxCore

/// What a library of 100,000 tracks costs in memory, counted from the structures the box
/// keeps (no timing): the catalog clients browse, and the index as a start reads it back.
/// A 512 MB board runs the daemon in under 64 MB with such a library.
@Suite struct LibraryMemoryTests {
    let fx = Fixtures.shared
    static let count = 100_000

    /// Tracks tagged as a real library is: albums of 10, each tag on each track, paths of
    /// some 60 bytes, folder records that name the same files.
    private static func library() -> (scan: LibraryScan, folders: [String: FolderRecord]) {
        var scan = LibraryScan()
        var folders: [String: FolderRecord] = [:]
        for album in 0..<(count / 10) {
            let folder = "/music/Artist \(album / 20)/Album number \(album)"
            var entries: [FolderEntry] = []
            for number in 1...10 {
                var tags = SongTags()
                tags.title = "The title of song \(number) on album \(album)"
                tags.artist = "Artist \(album / 20)"
                tags.album = "Album number \(album)"
                tags.albumArtist = "Artist \(album / 20)"
                tags.date = "1999"
                tags.genre = "Rock"
                tags.format = "44100:16:2"
                tags.track = number
                tags.disc = 1
                tags.seconds = 187.5
                let name = String(format: "%02d The title of song %d.flac", number, number)
                scan.tracks.append(LibraryTrack(path: "\(folder)/\(name)", tags: tags))
                let id = FileID(device: 1, inode: UInt64(album * 10 + number))
                entries.append(FolderEntry(name: name, kind: .file(id, FileIdentity(size: 1000, modified: 1), .track(tags))))
            }
            folders[folder] = FolderRecord(id: FileID(device: 1, inode: UInt64(1_000_000 + album)), modified: 1, entries: entries)
        }
        return (scan, folders)
    }

    /// Bytes the folder records keep beyond the tags (counted with the tracks').
    private static func folderBytes(_ folders: [String: FolderRecord]) -> Int {
        folders.reduce(folders.capacity * (MemoryLayout<String>.stride + MemoryLayout<FolderRecord>.stride)) { sum, folder in
            sum + PathIndex.stringBytes(folder.key) + folder.value.entries.capacity * MemoryLayout<FolderEntry>.stride
                + folder.value.entries.reduce(0) { $0 + PathIndex.stringBytes($1.name) }
        }
    }

    /// Tags kept once however many values share them.
    private static func tagBytes(_ tags: [SongTags]) -> Int {
        var seen = Set<ObjectIdentifier>()
        return tags.reduce(0) { sum, tags in
            guard let storage = tags.storage, seen.insert(storage).inserted else { return sum }
            return sum + tags.heapBytes
        }
    }

    private static func folderTags(_ folders: [String: FolderRecord]) -> [SongTags] {
        folders.values.flatMap { $0.entries.compactMap { entry -> SongTags? in
            if case .file(_, _, .track(let tags)) = entry.kind { return tags }
            return nil
        } }
    }

    /// The catalog: a track's path, tags and place in the path index in well under 400
    /// bytes (each track's fields apart and a dictionary by path took over 600).
    @Test func theCatalogKeepsATrackInAFewHundredBytes() {
        let catalog = LibraryCatalog()
        catalog.publish(Self.library().scan)
        let known = catalog.snapshot
        #expect(known.tracks.count == Self.count)
        let perTrack = known.heapBytes / Self.count
        #expect(perTrack < 400, "\(perTrack) bytes a track")
        // Still found by path.
        #expect(known.tags(of: "/music/Artist 3/Album number 77/05 The title of song 5.flac")?.title == "The title of song 5 on album 77")
        #expect(known.tags(of: "/music/nowhere.flac") == nil)
    }

    /// The index as a start reads it, a line at a time: the folder records and the tracks
    /// share each track's tags, so the whole index stays under 600 bytes a track.
    @Test func theIndexReadBackKeepsOneCopyOfEachTracksTags() throws {
        let (scan, folders) = Self.library()
        let index = LibraryIndex(musicDirectory: "/music", playlistsDirectory: "", scan: scan, folders: folders)
        let path = try fx.scratchFolder("library-memory") + "/library.index"
        try index.save(path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let back = try #require(try LibraryIndex.load(path))
        #expect(back.scan.tracks.count == Self.count)
        #expect(back.scan.tracks[12345] == scan.tracks[12345])
        let tracks = back.scan.tracks
        let tagBytes = Self.tagBytes(tracks.map(\.tags) + Self.folderTags(back.folders))
        #expect(tagBytes == Self.tagBytes(tracks.map(\.tags)), "the folder records hold tags of their own")
        let bytes = tracks.capacity * MemoryLayout<LibraryTrack>.stride + tracks.reduce(0) { $0 + PathIndex.stringBytes($1.path) }
            + tagBytes + Self.folderBytes(back.folders)
        let perTrack = bytes / Self.count
        #expect(perTrack < 600, "\(perTrack) bytes a track")
    }
}
