#if canImport(Glibc)
import Glibc
#endif

/// How the status and songs are written: MPD's fields in MPD's order, values made safe,
/// and listings of thousands of songs built as bytes.
extension ControlSession {
    /// `status`: MPD 0.24's fields in its order, then the box's own (`output`, `mixer`).
    /// `format` stands in for the stream's while the track is not open yet.
    static func status(_ s: PlayerStatus, bitrate: Int?, updating: Int? = nil, format: String? = nil) -> String {
        let o = s.options
        var out = "volume: \(s.volume)\nrepeat: \(o.repeat ? 1 : 0)\nrandom: \(o.random ? 1 : 0)\nsingle: \(MPDProtocol.text(o.single))\nconsume: \(MPDProtocol.text(o.consume))\n"
        out += "partition: default\nplaylist: \(s.queueVersion)\nplaylistlength: \(s.queueLength)\nmixrampdb: 0\n"
        let state = switch s.state {
        case .playing, .loading: "play"
        case .paused: "pause"
        case .stopped, .error: "stop"
        }
        out += "state: \(state)\nlastloadedplaylist: \(MPDProtocol.value(s.loadedPlaylist ?? ""))\n"
        if let spot = s.selected { out += "song: \(spot.position)\nsongid: \(spot.id)\n" }
        if state != "stop", s.queuePosition != nil {
            out += "time: \(Int(s.elapsed)):\(Int(s.duration.rounded()))\nelapsed: \(format3(s.elapsed))\n"
            if let bitrate { out += "bitrate: \(bitrate)\n" }
            out += "duration: \(format3(s.duration))\n"
            if let info = s.info {
                out += "audio: \(info.sampleRate):\(info.sampleFormat.bitsPerSample):\(info.channels)\n"
            } else if let format {
                out += "audio: \(format)\n"
            }
        }
        // Not MPD's: a network track's seconds downloaded ahead, and a wait for the network.
        if let buffered = s.bufferedSeconds { out += "buffered: \(format3(buffered))\n" }
        if s.buffering { out += "buffering: 1\n" }
        if let next = s.upcoming { out += "nextsong: \(next.position)\nnextsongid: \(next.id)\n" }
        if let updating { out += "updating_db: \(updating)\n" }
        // Not MPD's: where the audio goes (clients skip keys they do not know).
        out += "output: \(MPDProtocol.value(s.route.description))\nmixer: \(MPDProtocol.value(s.mixer))\n"
        if s.speed != 1 { out += "speed: \(PlaybackSpeed.text(s.speed))\n" }
        if let error = s.lastError { out += "error: \(MPDProtocol.value(error))\n" }
        return out
    }

    /// One queue entry as MPD lists it: the file relative to the music folder, its format
    /// and tags where known, its length, position and id. Only the tags this client asked
    /// for (`tagtypes`) are listed.
    func song(path: String, spot: QueueSpot?, tags known: SongTags?) -> String {
        var out: [UInt8] = []
        appendSong(to: &out, path: path, spot: spot, tags: known)
        return Self.text(out)
    }

    /// `song`, appended to `out` as bytes: a listing of thousands is one growing buffer,
    /// which costs half what growing a string does.
    func appendSong(to out: inout [UInt8], path: String, spot: QueueSpot?, tags known: SongTags?) {
        func line(_ key: StaticString, _ value: String) {
            out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            MPDProtocol.appendValue(value, to: &out)
            out.append(0x0a)
        }
        func line(_ key: StaticString, _ number: Int) {
            out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            Self.appendDecimal(number, to: &out)
            out.append(0x0a)
        }
        func time(_ key: StaticString, _ seconds: Int) {
            out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            MPDProtocol.appendTimestamp(seconds, to: &out)
            out.append(0x0a)
        }
        line("file: ", library.uri(path))
        if let modified = known?.modified { time("Last-Modified: ", modified) }
        if let added = known?.added { time("Added: ", added) }
        if let known {
            if let format = known.format { line("Format: ", format) }
            // Each value the song holds, of the tags the client asked for, in the order read.
            let wanted = listedTagCodes
            known.forEachValueBytes { tag, value in
                guard wanted & 1 << tag.code != 0 else { return }
                MPDProtocol.appendValue(tag.rawValue, to: &out)
                out.append(contentsOf: [0x3a, 0x20])
                MPDProtocol.appendValue(value, to: &out)
                out.append(0x0a)
            }
            if known.seconds > 0 {
                line("Time: ", Int(known.seconds.rounded()))
                let ms = Int((known.seconds * 1000).rounded())
                out.append(contentsOf: "duration: ".utf8)
                Self.appendDecimal(ms / 1000, to: &out)
                out.append(0x2e)
                let fraction = ms % 1000
                if fraction < 100 { out.append(0x30) }
                if fraction < 10 { out.append(0x30) }
                Self.appendDecimal(fraction, to: &out)
                out.append(0x0a)
            }
        }
        if let spot {
            line("Pos: ", spot.position)
            line("Id: ", spot.id)
            if spot.priority != 0 { line("Prio: ", spot.priority) }
        }
    }

    /// `n` in decimal, without making a string for it.
    static func appendDecimal(_ n: Int, to out: inout [UInt8]) {
        if n < 0 { out.append(0x2d) }
        var magnitude = n.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: buffer[at...])
        }
    }

    /// A reply made as bytes, as text, with room for the `OK` that follows it (so a
    /// listing of megabytes is not copied once more for three bytes).
    static func text(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count + 16) { buffer in
            _ = buffer.initialize(fromContentsOf: bytes)
            return bytes.count
        }
    }

    /// Queue entries at `positions`, with their tags, made as the client reads them.
    func songs<Positions: RandomAccessCollection<Int>>(_ positions: Positions, of listing: QueueListing, status s: PlayerStatus) -> ReplyStream {
        let known = catalog.snapshot
        return ReplyStream.items(positions.count) { [unowned self] k, out in
            let i = positions[positions.index(positions.startIndex, offsetBy: k)]
            appendSong(to: &out, path: listing.paths[i], spot: listing.spot(i),
                       tags: tags(of: listing.paths[i], position: i, status: s, catalog: known))
        }
    }

    /// A queue entry's tags: for the one playing, what its decoder found (the freshest);
    /// for the others, the library's.
    func tags(of path: String, position: Int, status s: PlayerStatus, catalog known: LibraryCatalog.Snapshot) -> SongTags? {
        if position == s.queuePosition, let metadata = s.metadata {
            let library = known.tags(of: path)
            var tags = SongTags(metadata, info: s.info, modified: library?.modified)
            tags.added = library?.added
            if s.duration > 0 { tags.seconds = s.duration }
            return tags
        }
        return known.tags(of: path)
    }

    /// The playing file's kbit/s over its whole length (MPD reports the decoder's current
    /// figure; a file's average is what the box knows without decoding for it).
    func averageBitrate(_ s: PlayerStatus) -> Int? {
        guard let path = s.path, s.duration > 0 else { return nil }
        if let known = bitrate, known.path == path { return known.kbps }
        var st = stat()
        let kbps = FilePath.withCString(path) { stat($0, &st) } == 0 ? Int((Double(st.st_size) * 8 / s.duration / 1000).rounded()) : nil
        bitrate = (path, kbps)
        return kbps
    }

    static func format3(_ x: Double) -> String {
        let ms = Int((x * 1000).rounded())
        return "\(ms / 1000).\(String(ms % 1000).leftPadded(to: 3))"
    }
}
