/// Where gapless playback stands: the track the listener hears, the ones the decoder has
/// already gone on to, and the one the engine was told follows. Each start of a queue
/// entry gets a token, so that the engine's news, which comes later and from other
/// threads, is matched with the entry it was about, even after the queue changed. It
/// only keeps track; the player decides what to do and tells the engine.
struct GaplessCursor {
    /// A track the decode thread has moved into, or (`passedOver`) could not open and
    /// went past, before the listener got there.
    struct Ahead: Equatable {
        var token: Int
        var position: Int
        var passedOver = false
    }

    private var nextToken = 1
    /// Which queue position each token plays.
    private(set) var positions: [Int: Int] = [:]
    /// What the decode thread found in each track it opened.
    private(set) var opened: [Int: (info: StreamInfo, metadata: TrackMetadata)] = [:]
    /// The track heard, or being started; nil when nothing plays.
    private(set) var current: Int?
    /// The frame the current track was started at, until the engine reports hearing it.
    private(set) var cuedFrame: Int64 = 0
    /// The track the engine will continue with, not yet decoded into.
    private(set) var pending: (token: Int, position: Int)?
    /// The engine holds a track to continue with (the last `setNext` named one).
    private(set) var engineHasNext = false
    /// Tracks the decode thread has moved into but the listener has not reached yet.
    private(set) var ahead: [Ahead] = []
    /// The current track was started by "previous" and has not opened yet: if it cannot
    /// be, the way on is further back.
    var movingBack = false
    /// Tracks that failed to open in a row: as many as the queue holds is an error.
    var failuresInARow = 0
    /// The track ended while the queue held only it (`QueueEntries.provisional`): the end
    /// waits for the real list.
    var endedBeforeList = false

    var currentPosition: Int? { current.flatMap { positions[$0] } }
    var currentInfo: StreamInfo? { current.flatMap { opened[$0]?.info } }
    var currentMetadata: TrackMetadata? { current.flatMap { opened[$0]?.metadata } }
    /// The current track's length in seconds (0: none playing, or a live stream).
    var duration: Double { currentInfo?.durationSeconds ?? 0 }

    /// Seconds into the current track at `frame` (0 while none plays or it has not opened).
    func seconds(at frame: Int64) -> Double {
        guard current != nil, let info = currentInfo else { return 0 }
        return Double(frame) / Double(info.sampleRate)
    }

    /// The track at `position` starts afresh from `frame`; what was ahead is forgotten.
    /// Returns its token.
    mutating func start(at position: Int, frame: Int64) -> Int {
        let token = newToken(for: position)
        current = token
        cuedFrame = frame
        pending = nil
        ahead.removeAll()
        return token
    }

    /// Nothing plays any more.
    mutating func stop() { current = nil }

    /// The queue was replaced by a list that still holds the current track, at `position`.
    mutating func currentMoved(to position: Int) {
        if let current { positions[current] = position }
    }

    /// Names `position` as the track to follow; nil when it is the one named already.
    mutating func name(_ position: Int) -> Int? {
        if pending?.position == position { return nil }
        let token = newToken(for: position)
        pending = (token, position)
        return token
    }

    /// Nothing is to follow.
    mutating func nameNothing() { pending = nil }

    /// The engine was told what follows (`hasNext`) with a start.
    mutating func engineHolds(next hasNext: Bool) { engineHasNext = hasNext }

    /// Whether telling the engine what follows (`hasNext`: something) changes what it
    /// holds; each telling wakes the audio threads. Counts it as told when it does.
    mutating func tell(hasNext: Bool) -> Bool {
        guard hasNext || engineHasNext else { return false }
        engineHasNext = hasNext
        return true
    }

    mutating func opened(_ token: Int, info: StreamInfo, metadata: TrackMetadata) {
        opened[token] = (info, metadata)
        if token == current { movingBack = false }  // a later failure is not a step back
    }

    func metadata(of token: Int) -> TrackMetadata? { opened[token]?.metadata }

    mutating func setMetadata(_ metadata: TrackMetadata, of token: Int) {
        opened[token]?.metadata = metadata
    }

    /// The decoder went on into `token`; false when it was not the one named to follow.
    mutating func decoderAdvanced(_ token: Int) -> Bool {
        guard let pending, pending.token == token else { return false }
        ahead.append(Ahead(token: token, position: pending.position))
        self.pending = nil
        return true
    }

    /// The listener now hears `token`, one the decoder went on to: returns the tracks
    /// ahead up to and including it, in order (each before it ended by itself or was
    /// passed over), and makes it current. Nil when it is none of them.
    mutating func heard(_ token: Int) -> [Ahead]? {
        _ = decoderAdvanced(token)  // heard before the decoder's note arrived: same thing
        guard let at = ahead.firstIndex(where: { $0.token == token }) else { return nil }
        let reached = Array(ahead[...at])
        ahead.removeFirst(at + 1)
        current = token
        return reached
    }

    /// `token`, at `position`, could not be opened. If it was the track named to follow,
    /// the decoder passes over it to the one after (true); the queue steps over it when
    /// the change is heard.
    mutating func passedOver(_ token: Int, at position: Int) -> Bool {
        guard let pending, pending.token == token else { return false }
        self.pending = nil
        ahead.append(Ahead(token: token, position: position, passedOver: true))
        return true
    }

    /// The queue changed: `moved[old]` is each old position's new one (nil: gone). The
    /// track named to follow is forgotten, to be named again. Returns whether every
    /// track the decoder went on to is still queued, and whether one was named.
    mutating func remap(_ moved: [Int?]) -> (aheadKept: Bool, wasNamed: Bool) {
        func map(_ position: Int) -> Int? { position < moved.count ? moved[position] : nil }
        positions = positions.compactMapValues(map)
        // An entry the decoder passed over and the client removed needs no stepping over.
        ahead.removeAll { $0.passedOver && map($0.position) == nil }
        let kept = ahead.compactMap { entry in map(entry.position).map { Ahead(token: entry.token, position: $0, passedOver: entry.passedOver) } }
        let aheadKept = kept.count == ahead.count
        ahead = kept
        let wasNamed = pending != nil
        pending = nil
        return (aheadKept, wasNamed)
    }

    /// Forgets the tokens of tracks left behind.
    mutating func forgetOld() {
        let keep = Set([current, pending?.token].compactMap { $0 } + ahead.map(\.token))
        let newest = current ?? 0
        positions = positions.filter { keep.contains($0.key) || $0.key > newest }
        opened = opened.filter { keep.contains($0.key) || $0.key > newest }
    }

    private mutating func newToken(for position: Int) -> Int {
        let token = nextToken
        nextToken += 1
        positions[token] = position
        return token
    }
}
