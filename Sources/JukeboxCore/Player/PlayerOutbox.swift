/// What the player has to tell: the changes made since it last told, and the events
/// ready for its observers, which `Player` takes under its lock and tells after.
final class PlayerOutbox {
    /// A change is told with the status as it is when told, which `Player` builds once
    /// the clients waiting on a change have heard of it.
    enum Item {
        case changed(PlayerChanges)
        case event(PlayerEvent)
    }

    private(set) var changes: PlayerChanges = []
    private var items: [Item] = []

    func changed(_ what: PlayerChanges) { changes.formUnion(what) }

    func post(_ event: PlayerEvent) { items.append(.event(event)) }

    /// The changes so far are to be told (none: the status alone, as time passes).
    func postChanges() {
        items.append(.changed(changes))
        changes = []
    }

    func take() -> [Item] {
        var taken: [Item] = []
        swap(&taken, &items)
        return taken
    }
}
