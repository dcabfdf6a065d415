/// What `idle` waits for: MPD's subsystems. The box reports player, mixer, options,
/// playlist, output, stored_playlist, database (a scan changed the library) and update
/// (an update job started or ended); the others are accepted, as MPD accepts them, and wait for
/// changes the box does not make (yet).
public enum IdleSubsystem: String, CaseIterable, Sendable, Hashable {
    case database, update
    case storedPlaylist = "stored_playlist"
    case playlist, player, mixer, output, options, partition, sticker, subscription, message, neighbor, mount

    /// What changed between two statuses `seconds` apart: a seek shows as elapsed time
    /// that moved otherwise than the clock did.
    public static func changes(from old: PlayerStatus?, to new: PlayerStatus, seconds: Double) -> Set<IdleSubsystem> {
        guard let old else { return [.player, .mixer, .options, .playlist, .output] }
        var changed: Set<IdleSubsystem> = []
        if old.volume != new.volume { changed.insert(.mixer) }
        if old.options != new.options { changed.insert(.options) }
        if old.queueVersion != new.queueVersion { changed.insert(.playlist) }
        if old.route != new.route { changed.insert(.output) }
        if old.state != new.state || old.selected != new.selected || old.path != new.path
            || (old.metadata == nil) != (new.metadata == nil) || new.jumped(from: old, seconds: seconds) {
            changed.insert(.player)
        }
        return changed
    }
}
