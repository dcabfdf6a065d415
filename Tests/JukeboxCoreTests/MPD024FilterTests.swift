import Foundation
import Testing
@testable import JukeboxCore

/// MPD 0.24's filters (`eq_cs`, `contains_ci`..., `!contains`, `!starts_with`,
/// `added-since`) and its `Added` time: kept from the first scan that found a song, through
/// rescans and restarts.
@Suite struct MPD024FilterTests {
    let fx = Fixtures.shared

    private func tags(_ values: [(MPDTag, String)], modified: Int? = nil, added: Int? = nil) -> SongTags {
        var m = TrackMetadata()
        for (tag, value) in values { m.add(tag, value) }
        var tags = SongTags(m, info: nil, modified: modified)
        tags.added = added
        return tags
    }

    private func matches(_ expression: String, _ song: SongTags, search: Bool = false) throws -> Bool {
        let (filter, _) = try SongFilter.parse([expression], oldStyleContains: search)
        return filter.test(foldCase: search)(song, { "Folder/song.flac" }, 0)
    }

    @Test func explicitCaseOperatorsOverrideTheCommands() throws {
        let song = tags([(.title, "Dancing Queen")])
        #expect(try matches("(title eq_ci 'dancing queen')", song))
        #expect(try !matches("(title eq_cs 'dancing queen')", song, search: true))
        #expect(try matches("(title !eq_cs 'dancing queen')", song, search: true))
        #expect(try matches("(title contains_ci 'QUEEN')", song))
        #expect(try !matches("(title CONTAINS_CS 'queen')", song, search: true))
        #expect(try matches("(title starts_with_ci 'dANCING')", song))
        #expect(try !matches("(title !starts_with_ci 'dANCING')", song))
        #expect(try matches("(title !contains 'King')", song))
        #expect(try !matches("(title !starts_with 'Danc')", song))
        // A regular expression in `search` ignores case, as MPD compiles it.
        #expect(try matches("(title =~ '^dancing')", song, search: true))
        #expect(try !matches("(title =~ '^dancing')", song))
        #expect(throws: SongFilter.Problem(message: "Unknown filter operator: eq 'x')")) { try matches("(title eq 'x')", song) }
    }

    @Test func aNegationMatchesWhenNoValueDoes() throws {
        let duet = tags([(.artist, "Singer"), (.artist, "Guest")])
        #expect(try !matches("(artist != 'Singer')", duet))
        #expect(try !matches("(artist !contains 'Gue')", duet))
        #expect(try matches("(artist != 'Band')", duet))
        // A missing tag is the empty value: `contains ''` finds it, as in MPD.
        #expect(try matches("(album contains '')", duet))
        #expect(try !matches("(album != '')", duet))
    }

    @Test func timesAreISO8601OrUNIX() throws {
        #expect(try FilterTime.seconds("1700000000") == 1_700_000_000)
        #expect(try FilterTime.seconds("2023-11-14T22:13:20Z") == 1_700_000_000)
        #expect(try FilterTime.seconds("20231114T221320Z") == 1_700_000_000)
        #expect(try FilterTime.seconds("2023-11-15T00:13:20+02:00") == 1_700_000_000)
        #expect(try FilterTime.seconds("2023-11-14") == 1_699_920_000)
        #expect(try FilterTime.seconds("2023-11") == 1_698_796_800)
        #expect(throws: FilterTime.Problem.self) { try FilterTime.seconds("garbage") }
        #expect(throws: FilterTime.Problem.self) { try FilterTime.seconds("2024-13") }
        #expect(throws: FilterTime.Problem.self) { try FilterTime.seconds("2024-01-01X") }
    }

    @Test func addedSinceAndModifiedSince() throws {
        let old = tags([(.title, "Old")], modified: 1_000, added: 2_000)
        let unknown = tags([(.title, "Before")], modified: 1_000)
        #expect(try matches("(added-since '2000')", old))
        #expect(try !matches("(added-since '2001')", old))
        #expect(try !matches("(added-since '0')", unknown))
        #expect(try matches("(modified-since '1970-01-01T00:16:40Z')", old))
        #expect(try !matches("(!(modified-since '1000'))", old))
        let (pairs, used) = try SongFilter.parse(["added-since", "1999", "title", "Old", "sort", "Added"], oldStyleContains: false)
        #expect(used == 4)
        #expect(pairs.test(foldCase: false)(old, { "" }, 0))
    }

    @Test func audioFormatsAndMasks() throws {
        var song = tags([(.title, "x")])
        song.format = "44100:16:2"
        #expect(try matches("(AudioFormat == '44100:16:2')", song))
        #expect(try matches("(audioformat =~ '*:16:*')", song))
        #expect(try !matches("(AudioFormat =~ '48000:*:*')", song))
        #expect(try !matches("(AudioFormat == '44100:16:2')", tags([(.title, "no format")])))
        #expect(throws: SongFilter.Problem(message: "Failed to parse the sample rate")) { try matches("(AudioFormat == '*:16:2')", song) }
        #expect(throws: SongFilter.Problem(message: "Channel count missing")) { try matches("(AudioFormat =~ '44100:16')", song) }
        #expect(throws: SongFilter.Problem(message: "'==' or '=~' expected")) { try matches("(AudioFormat != '44100:16:2')", song) }
    }

    @Test func priorityIsAQueueEntrysOwn() throws {
        let (filter, _) = try SongFilter.parse(["(prio >= 5)"], oldStyleContains: false)
        let song = tags([(.title, "x")])
        #expect(filter.test(foldCase: false)(song, { "" }, 7))
        #expect(!filter.test(foldCase: false)(song, { "" }, 0))
        #expect(throws: SongFilter.Problem(message: "'>=' expected")) { try matches("(prio > 5)", song) }
        #expect(throws: SongFilter.Problem(message: "Invalid priority value")) { try matches("(prio >= 256)", song) }
    }

    private func library(_ name: String) throws -> String {
        let root = try fx.scratchFolder("added-" + name)
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root + "/A", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: root + "/A/1.flac")
        return root
    }

    private func added(_ index: LibraryIndex, _ name: String) -> Int? {
        index.scan.tracks.first { $0.path.hasSuffix(name) }?.tags.added
    }

    @Test func aSongKeepsItsAddedTimeThroughRescansAndTheIndex() throws {
        let root = try library("kept")
        let before = Int(time(nil))
        let first = LibraryScanner.update(nil, musicDirectory: root, playlistsDirectory: nil).index
        let firstAdded = try #require(added(first, "A/1.flac"))
        #expect(firstAdded >= before && firstAdded <= Int(time(nil)))

        // Saved and read back: the time is in the index.
        let path = root + "/../added-kept.index"
        try first.save(path)
        let loaded = try #require(try LibraryIndex.load(path))
        #expect(loaded == first)
        #expect(added(loaded, "A/1.flac") == firstAdded)

        // Changed (new tags, new time) and a new file beside it: the first keeps its time.
        sleep(1)
        try FileManager.default.removeItem(atPath: root + "/A/1.flac")
        try FileManager.default.copyItem(atPath: fx.path("music16.flac"), toPath: root + "/A/1.flac")
        try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: root + "/A/2.flac")
        let second = LibraryScanner.update(loaded, musicDirectory: root, playlistsDirectory: nil).index
        #expect(added(second, "A/1.flac") == firstAdded)
        #expect(try #require(added(second, "A/2.flac")) > firstAdded)
    }

    @Test func anIndexFromBeforeAddedReadsAsUnknown() throws {
        var tags = SongTags()
        tags.readIndexed(ArraySlice(Array("Title=Old\tformat=44100:16:2".utf8)))
        #expect(tags.added == nil && tags.title == "Old")
        tags.added = 1_700_000_000
        #expect(tags.indexed.first == "added=1700000000")
        var back = SongTags()
        back.readIndexed(ArraySlice(Array(tags.indexed.joined(separator: "\t").utf8)))
        #expect(back == tags)
    }
}
