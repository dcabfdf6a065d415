import Testing
@testable import JukeboxCore

/// The queue's list, ids and versions, as a value: synthetic edits, no player.
@Suite struct QueueEntriesTests {
    func library(_ paths: [String]) -> QueueEntries {
        var queue = QueueEntries(order: PlayQueue(count: 0, mode: .once, generator: SystemRandom()))
        #expect(queue.offerLibrary(paths, provisional: false) == true)
        return queue
    }

    @Test func theLibrarysListGetsIdsAndKeepsThemAcrossARescan() {
        var queue = library(["a", "b", "a"])
        #expect(queue.ids == [1, 2, 3])
        #expect(queue.version == 2 && queue.tracksVersion == 2)
        // The same list again changes nothing.
        #expect(queue.offerLibrary(["a", "b", "a"], provisional: false) == false)
        #expect(queue.version == 2)
        // A rescan: each file keeps its entry's id (the first unclaimed for a file twice).
        #expect(queue.offerLibrary(["c", "a", "b"], provisional: false) == true)
        #expect(queue.ids == [4, 1, 2])
        #expect(queue.entryVersions == [3, 3, 3])
        #expect(queue.clientQueue == nil)
    }

    @Test func anEntryKeepsItsVersionOnlyWhereItStayed() throws {
        var queue = library(["a", "b", "c", "d"])
        var draft = queue.draft(current: nil)
        try draft.remove(2..<3)
        #expect(queue.apply(draft) == [0, 1, nil, 2])
        #expect(queue.tracks == ["a", "b", "d"])
        #expect(queue.ids == [1, 2, 4])
        #expect(queue.entryVersions == [2, 2, 3])
        #expect(queue.listing.changed(since: 2) == [2])
        // A copy that changes nothing is no change.
        #expect(queue.apply(queue.draft(current: nil)) == nil)
        #expect(queue.version == 3)
    }

    @Test func aClientsQueueStaysWhenTheLibraryChanges() throws {
        var queue = library(["a", "b"])
        var draft = queue.draft(current: 0)
        let added = try draft.insert(["x"])
        #expect(added == [3])
        _ = queue.apply(draft)
        #expect(queue.edited)
        #expect(queue.offerLibrary(["a", "b", "c"], provisional: false) == nil)
        #expect(queue.tracks == ["a", "b", "x"])
        #expect(queue.library == ["a", "b", "c"])
        #expect(queue.clientQueue == ClientQueue(version: queue.tracksVersion, tracks: ["a", "b", "x"]))
        // The library again, with fresh ids, and the queue is the library's once more.
        #expect(queue.replaceAll(queue.library, edited: false) == [nil, nil, nil])
        #expect(queue.ids == [4, 5, 6])
        #expect(!queue.edited)
    }

    @Test func consumeAndTagsMoveTheVersions() {
        var queue = library(["a", "b", "c"])
        #expect(queue.consume(0) == [nil, 0, 1])
        #expect(queue.tracks == ["b", "c"])
        #expect(queue.entryVersions == [3, 3])
        #expect(queue.consume(5) == nil)
        queue.tagsChanged(at: 1)
        #expect(queue.tagChanges == 1)
        #expect(queue.version == 4 && queue.tracksVersion == 3)
        #expect(queue.entryVersions == [3, 4])
    }

    @Test func aProvisionalListDoesNotBecomeTheLibrary() {
        var queue = QueueEntries(order: PlayQueue(count: 0, mode: .once, generator: SystemRandom()))
        #expect(queue.offerLibrary(["resumed"], provisional: true) == true)
        #expect(queue.library.isEmpty)
        #expect(queue.offerLibrary(["a", "resumed"], provisional: false) == true)
        #expect(queue.library == ["a", "resumed"])
        #expect(queue.ids == [2, 1])
    }
}
