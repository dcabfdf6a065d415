/// The uploads in flight in one upload folder: at most `limit`, each known by its part
/// file's name so that a sweep of leftovers never takes a file still being written.
final class UploadSlots: @unchecked Sendable {
    private let active = ConditionLocked(Set<String>())
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a slot for the part file `name`, or refuses when all are taken.
    func take(_ name: String) throws(UploadRefusal) {
        let taken = active.withLock { slots in
            guard slots.wholeValue.count < limit else { return false }
            slots.wholeValue.insert(name)
            return true
        }
        guard taken else { throw .tooManyAtOnce(limit) }
    }

    func free(_ name: String) { active.withLock { _ = $0.wholeValue.remove(name) } }

    func isActive(_ name: String) -> Bool { active.current.contains(name) }

    var count: Int { active.current.count }
}
