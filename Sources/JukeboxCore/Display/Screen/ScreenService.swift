import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The screen: a thread of its own that draws what the player's observers report. It
/// never blocks them: events only update a locked `ScreenInput` and wake the thread,
/// which draws when something changed or when time moves something (the clock once a
/// second, the karaoke fill `fill_rate` times a second), and not at all while paused. A
/// display that is absent or fails is logged once and tried again every 2 s.
public final class ScreenService: Service, @unchecked Sendable {
    public let name = "screen"
    public let policy = FailurePolicy.optional
    /// What the daemon reports besides the player: each kind has at most one message.
    public enum Notice: Int, Sendable, Comparable {
        case config, library, control, cards
        public static func < (a: Notice, b: Notice) -> Bool { a.rawValue < b.rawValue }
    }

    public var settings: JukeboxConfig.Display
    private let logger: Logger
    private let shared = ConditionLocked(Inbox())
    private var thread: pthread_t?
    private lazy var covers = CoverLoader(logger: logger) { [unowned self] path, cover in coverReady(path, cover) }

    private struct Inbox {
        var input = ScreenInput()
        var notices: [Notice: String] = [:]
        /// A track whose lyrics are still to be looked up.
        var lookup: Lookup?
        var changed = true
        var stop = false
        /// A display is open. Without one the thread sleeps until it tries to open one
        /// again, and a change is picked up then: waking it for each would be for nothing.
        var drawing = false
    }

    private struct Lookup {
        var path: String
        var metadata: TrackMetadata?
    }

    /// How long the volume stays large after it changed.
    static let volumeShownFor: UInt64 = 2_000_000_000
    /// A png: display is written at most this often.
    static let pngInterval: UInt64 = 500_000_000
    static let retryInterval: UInt64 = 2_000_000_000

    public init(settings: JukeboxConfig.Display, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    // MARK: What it is told (any thread; never waits on drawing)

    public func playerEvent(_ event: PlayerEvent) {
        guard case .changed(let changes, let status) = event else { return }
        let now = MonotonicClock.now()
        shared.withLock { inbox in
            if changes.contains(.mixer) { inbox.input.volumeUntil = now + Self.volumeShownFor }
            // Another track, or what its tags say: its cover and lyrics are looked up again.
            if !changes.isDisjoint(with: [.track, .tags]) {
                inbox.input.lyrics = nil
                inbox.input.cover = nil
                inbox.lookup = status.path.map { Lookup(path: $0, metadata: status.metadata) }
            }
            inbox.input.status = status
            inbox.input.statusAt = now
            inbox.changed = true
            if inbox.drawing { inbox.broadcast() }
        }
    }

    /// Shows `text` for `kind` until it is set again (nil clears it).
    public func notice(_ kind: Notice, _ text: String?) {
        shared.withLock { inbox in
            inbox.notices[kind] = text
            inbox.input.notices = inbox.notices.sorted { $0.key < $1.key }.map(\.value)
            inbox.changed = true
            if inbox.drawing { inbox.broadcast() }
        }
    }

    // MARK: Service

    public func start(died: @escaping @Sendable (any Error) -> Void) throws {
        guard settings.device != .none else {
            logger.info("screen: none (display = \"none\")")
            return
        }
        var problems: [String] = []
        // Opened here, not on the thread: a config naming no usable font fails the start
        // and is logged once, instead of a thread that can never draw.
        let fonts = try FontChain(paths: settings.fonts, problems: &problems)
        for problem in problems { logger.warning("screen: \(problem)") }
        shared.withLock { $0.stop = false; $0.changed = true }
        let box = FontBox(fonts)
        try covers.start()
        do {
            thread = try WorkerThread.start(name: "jukebox-screen") { [self] in run(fonts: box.fonts) }
        } catch {
            covers.stop()
            throw error
        }
    }

    public func stop() {
        guard let thread else { return }
        shared.withLock { $0.stop = true; $0.broadcast() }
        pthread_join(thread, nil)
        self.thread = nil
        covers.stop()
    }

    /// Hands the fonts to the screen thread, which owns them from then on.
    private final class FontBox: @unchecked Sendable {
        let fonts: FontChain
        init(_ fonts: FontChain) { self.fonts = fonts }
    }

    // MARK: The screen thread

    private func run(fonts: FontChain) {
        let settings = self.settings
        var display: Display?
        var renderer: ScreenRenderer?
        var retryAt: UInt64 = 0
        var lastProblem: String?
        var pending = Damage()
        var lastWrite: UInt64 = 0
        var frames = 0, pixels = 0, reportAt = MonotonicClock.now() + 1_000_000_000
        var lastLine: Int?
        var input = ScreenInput()
        // A track's lookup waits for a display: the cover's size comes from its layout.
        var awaitingLookUp: Lookup?
        defer { display?.close() }
        while true {
            let now = MonotonicClock.now()
            if display == nil, now >= retryAt {
                do {
                    let opened = try open(settings)
                    display = opened
                    let size = opened.canvasSize
                    if renderer?.canvas.width != size.width || renderer?.canvas.height != size.height {
                        renderer = ScreenRenderer(width: size.width, height: size.height, fonts: fonts, fillRate: settings.fillRate)
                    }
                    renderer?.invalidate()
                    lastProblem = nil
                    logger.info("screen: drawing on \(opened.name)\(settings.rotate == .none ? "" : ", turned \(settings.rotate.rawValue)°")")
                    if let framebuffer = opened as? FramebufferDisplay {
                        for note in framebuffer.notes { logger.notice("screen: \(note)") }
                    }
                } catch {
                    let text = "\(error)"
                    if text != lastProblem {
                        logger.warning(error.absent ? "screen: waiting for \(error.device) (\(error.reason)); drawing as soon as it appears" : "screen: \(text); trying again every 2 s")
                        lastProblem = text
                    }
                    retryAt = now + Self.retryInterval
                }
            }
            // The input is copied only when it changed: most wakes are the fill's.
            var lookup: Lookup?
            let stop = shared.withLock { [drawing = display != nil] inbox in
                inbox.drawing = drawing
                if inbox.changed {
                    input = inbox.input
                    lookup = inbox.lookup
                    inbox.lookup = nil
                    inbox.changed = false
                }
                return inbox.stop
            }
            if stop { return }
            var wake: UInt64? = display == nil ? retryAt : nil
            if let shown = display, let renderer {
                let (content, next) = renderer.content(for: input, at: now)
                let damage = renderer.render(content, cover: input.cover)
                if content.lyricLine != lastLine {
                    lastLine = content.lyricLine
                    if let line = content.lyricLine { logger.debug("screen: lyric line \(line) drawn at \(Int(input.elapsed(at: now) * 1000)) ms") }
                }
                for rect in damage.rects { pending.add(rect) }
                // Frames at most `fill_rate` a second (a PNG twice a second): a clock tick that
                // falls between two steps of the fill waits for the next step.
                let interval = shown is PNGDisplay ? Self.pngInterval : renderer.fillInterval
                if !pending.isEmpty, now >= lastWrite + interval {
                    do {
                        try shown.present(renderer.canvas, damage: pending)
                        frames += 1
                        pixels += pending.area
                        lastWrite = now
                        pending = Damage()
                    } catch {
                        logger.error("screen: \(error); reopening it")
                        shown.close()
                        display = nil
                        pending = Damage()
                        retryAt = now + Self.retryInterval
                    }
                }
                wake = [next, pending.isEmpty ? nil : lastWrite + interval, display == nil ? retryAt : nil].compactMap { $0 }.min()
            }
            // After drawing: the new title shows at once, the lyrics when found, the cover
            // when the cover thread has decoded it at the size the layout draws it.
            if let lookup { awaitingLookUp = lookup }
            if let awaiting = awaitingLookUp, let renderer {
                lookUp(awaiting.path, metadata: awaiting.metadata, coverSide: renderer.layout(.nowPlaying).cover?.width)
                awaitingLookUp = nil
            }
            // Reported once a second, and before sleeping with nothing to wake for (paused):
            // a frame is never left unreported while the screen rests.
            if frames > 0, now >= reportAt || wake == nil {
                logger.debug("screen: \(frames) frames, \(pixels) pixels flushed")
                frames = 0
                pixels = 0
            }
            if now >= reportAt { reportAt = now + 1_000_000_000 }
            shared.withLock { inbox in
                while !inbox.changed, !inbox.stop {
                    let now = MonotonicClock.now()
                    guard let wake else { inbox.wait(nanoseconds: 3_600_000_000_000); continue }
                    if now >= wake { break }
                    inbox.wait(nanoseconds: wake - now)
                }
            }
        }
    }

    private func open(_ settings: JukeboxConfig.Display) throws(DisplayError) -> Display {
        switch settings.device {
        case .none:
            throw DisplayError(device: "none", doing: "opening", reason: "no display configured")
        case .png(let path):
            return PNGDisplay(path: path, width: settings.pngWidth, height: settings.pngHeight, rotation: settings.rotate)
        case .memory(let width, let height):
            return MemoryDisplay(width: width, height: height, rotation: settings.rotate)
        case .framebuffer(let path):
            return try FramebufferDisplay(path: path, rotation: settings.rotate)
        case .drm(let path):
            return try DRMDisplay(path: path, rotation: settings.rotate)
        case .auto:
            for card in DisplayChoice.drmCards() {
                if let display = try? DRMDisplay(path: card, rotation: settings.rotate) { return display }
            }
            guard let path = DisplayChoice.framebuffers().first else {
                throw DisplayError(device: "a display", doing: "looking", reason: "no DRM display or framebuffer in /dev", absent: true)
            }
            return try FramebufferDisplay(path: path, rotation: settings.rotate)
        }
    }

    /// Looks up the track's lyrics (within their budget) and its cover: one decoded
    /// lately at once, a new one from the cover thread when it is ready.
    private func lookUp(_ path: String, metadata: TrackMetadata?, coverSide: Int?) {
        var problems: [String] = []
        let lyrics = TrackArt.lyrics(for: path, metadata: metadata, problems: &problems)
        for problem in problems { logger.warning("screen: \(path): \(problem)") }
        var cover: Cover?
        if let coverSide, let source = TrackArt.coverSource(for: path, metadata: metadata) {
            cover = covers.cover(for: path, source: source, side: coverSide) ?? nil
        }
        shared.withLock { inbox in
            guard inbox.input.status?.path == path else { return }
            inbox.input.lyrics = lyrics
            if let cover { inbox.input.cover = cover }
            inbox.changed = true
        }
    }

    /// A cover from the cover thread: shown if its track still plays.
    private func coverReady(_ path: String, _ cover: Cover?) {
        shared.withLock { inbox in
            guard inbox.input.status?.path == path, let cover else { return }
            inbox.input.cover = cover
            inbox.changed = true
            if inbox.drawing { inbox.broadcast() }
        }
    }
}
