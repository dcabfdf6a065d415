/// One frame exactly as the box would draw it, for `jukebox screenshot`, the README's
/// pictures and the golden-image tests: the same renderer and the same PNG writer as a
/// `png:` display, from a track's own tags, lyrics and cover at a given second.
public struct Screenshot {
    public var track: String
    public var seconds: Double
    public var panelWidth = 320
    public var panelHeight = 240
    public var rotation = Rotation.none
    public var state = PlayerState.playing
    public var mode = PlayMode.repeatAll
    public var volume = 60
    /// Show the volume box, as for 2 s after the volume changed.
    public var showVolume = false
    public var notice: String?

    public init(track: String, seconds: Double) {
        self.track = track
        self.seconds = seconds
    }

    /// The input the screen service would hold at that moment.
    public func input(problems: inout [String]) throws -> ScreenInput {
        let decoder = try AudioFile.open(track)
        var status = PlayerStatus()
        status.state = state
        status.path = track
        status.queuePosition = 0
        status.queueLength = 1
        status.metadata = decoder.metadata
        status.info = decoder.info
        status.duration = decoder.info.durationSeconds
        status.elapsed = min(seconds, status.duration)
        status.mode = mode
        status.volume = volume
        var input = ScreenInput()
        input.status = status
        input.statusAt = 1
        input.lyrics = TrackArt.lyrics(for: track, metadata: decoder.metadata, problems: &problems)
        // Decoded at the size the layout draws it, as the screen does.
        let size = rotation.canvasSize(panelWidth: panelWidth, panelHeight: panelHeight)
        let side = ScreenLayout(width: size.width, height: size.height, kind: .nowPlaying).cover?.width ?? 0
        if side > 0 { input.cover = TrackArt.cover(for: track, metadata: decoder.metadata, side: side, problems: &problems) }
        if showVolume { input.volumeUntil = .max }
        input.notices = notice.map { [$0] } ?? []
        return input
    }

    /// Draws the frame and returns the panel's pixels (its own orientation) and size.
    public func draw(fonts: FontChain, problems: inout [String]) throws -> (width: Int, height: Int, pixels: [UInt32]) {
        let input = try input(problems: &problems)
        let size = rotation.canvasSize(panelWidth: panelWidth, panelHeight: panelHeight)
        let renderer = ScreenRenderer(width: size.width, height: size.height, fonts: fonts)
        let (content, _) = renderer.content(for: input, at: 1)
        _ = renderer.render(content, cover: input.cover)
        let whole = PixelRect(x: 0, y: 0, width: panelWidth, height: panelHeight)
        return (panelWidth, panelHeight, rotation.panelPixels(renderer.canvas, panelRect: whole, panelWidth: panelWidth, panelHeight: panelHeight))
    }

    /// Writes the frame to `path` as the `png:` display does.
    public func write(to path: String, fonts: FontChain, problems: inout [String]) throws {
        let input = try input(problems: &problems)
        let display = PNGDisplay(path: path, width: panelWidth, height: panelHeight, rotation: rotation)
        let size = display.canvasSize
        let renderer = ScreenRenderer(width: size.width, height: size.height, fonts: fonts)
        let (content, _) = renderer.content(for: input, at: 1)
        try display.present(renderer.canvas, damage: renderer.render(content, cover: input.cover))
    }
}
