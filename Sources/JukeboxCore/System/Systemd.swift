import CSystemd

/// What the box tells systemd through libsystemd's `sd_notify`: that it is ready, that it
/// is alive (the watchdog), that it is reloading or stopping, with a status line for
/// `systemctl status` when ready. Outside systemd (`$NOTIFY_SOCKET` unset) every call does nothing.
public enum Systemd {
    public static func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public static func watchdogAlive() { notify("WATCHDOG=1") }
    public static func reloading() { notify("RELOADING=1") }
    public static func reloaded() { notify("READY=1") }
    public static func stopping() { notify("STOPPING=1") }

    /// The unit's `WatchdogSec=` in nanoseconds when it applies to this process; nil
    /// when there is no watchdog.
    public static var watchdogInterval: UInt64? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return microseconds * 1_000
    }

    /// Best effort: a box whose manager went away plays on.
    private static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }
}
