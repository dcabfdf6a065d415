extension PlayerStatus {
    /// The status the player's parts make together: its state and volume, the queue,
    /// the track heard (`cursor`, at `heardFrame`) and the engine's news.
    init(state: PlayerState, volume: Int, queue: QueueEntries, cursor: GaplessCursor, heardFrame: Int64, engine snapshot: EngineSnapshot,
         lastError: String?, lostOutput: OutputError?) {
        var s = Fields()
        s.state = state
        s.queueLength = queue.count
        s.queuePosition = cursor.current != nil ? queue.order.current : nil
        s.selected = queue.order.current.map { QueueSpot(position: $0, id: queue.ids[$0]) }
        s.upcoming = queue.order.upcoming.map { QueueSpot(position: $0, id: queue.ids[$0]) }
        s.queueVersion = queue.version
        s.tagChanges = queue.tagChanges
        s.tracksVersion = queue.tracksVersion
        s.path = s.queuePosition.flatMap { queue.tracks[safe: $0] }
        s.metadata = cursor.currentMetadata
        s.info = cursor.currentInfo
        s.elapsed = cursor.seconds(at: heardFrame)
        s.duration = cursor.duration
        s.options = queue.order.options
        s.volume = volume
        s.route = snapshot.route
        s.mixer = snapshot.mixer
        // The network's state is the decoded track's: shown while that is the one heard.
        if let stream = snapshot.stream, stream.token == cursor.current, case .url? = s.location {
            let rate = Double(cursor.currentInfo?.sampleRate ?? 0)
            s.bufferedSeconds = (rate > 0 ? Double(snapshot.queuedFrames) / rate : 0) + stream.secondsAhead
            s.buffering = state == .playing && stream.waiting && snapshot.queuedFrames == 0
        }
        s.lastError = lostOutput.map(Self.waitingReason) ?? lastError ?? snapshot.error.map { "\($0)" }
        self.init(s)
    }

    /// What the status says while waiting for a device.
    private static func waitingReason(_ error: OutputError) -> String {
        switch error {
        case .absent(let device): "waiting for \(device)"
        case .busy: "\(error); retrying"
        default: "output lost: \(error.device)"
        }
    }
}
