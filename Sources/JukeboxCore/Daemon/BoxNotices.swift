/// What the box says beside the music, one message per kind (a config error with its
/// line, waiting for the music folder, a busy port, a card's outcome): the screen and
/// the page are told the same words.
final class BoxNotices: Sendable {
    private let shown = ConditionLocked<[ScreenService.Notice: String]>([:])
    private let screen: ScreenService
    private let feed: PageFeed

    init(screen: ScreenService, feed: PageFeed) {
        self.screen = screen
        self.feed = feed
    }

    /// Shows `text` for `kind` until it is set again (nil clears it).
    func set(_ kind: ScreenService.Notice, _ text: String?) {
        let all = shown.withLock { shown -> [String] in
            shown.wholeValue[kind] = text
            return shown.wholeValue.sorted { $0.key < $1.key }.map(\.value)
        }
        screen.notice(kind, text)
        feed.notices(all)
    }
}
