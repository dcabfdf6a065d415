/// `[sleep]`, `[quiet_hours]` and `[key_lock]`: the kids' box's timers and limits.
public struct TimersConfig: Sendable, Equatable {
    public var sleep = SleepTimer.Settings()
    /// nil: no quiet hours.
    public var quietHours: QuietHours?
    /// Cards still play while the keys are locked.
    public var cardsWhileLocked = true

    public init() {}
}
