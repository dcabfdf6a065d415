/// The plugin's connection to the box over its control socket: commands, `idle` to hear
/// of changes where they happen, and the current song's picture in binary chunks.
final class BoxLink {
    /// What the plugin follows: the player, the volume, the play options, the queue.
    static let subsystems = ["player", "mixer", "options", "playlist"]
    /// The chunk asked for with `binarylimit`: a cover in a few round trips.
    static let chunkBytes = 65536

    let client: ControlClient
    private(set) var idling = false

    init(socketPath: String) throws(ControlClient.Failure) {
        client = try ControlClient(socketPath: socketPath)
        _ = try client.send(["binarylimit", "\(Self.chunkBytes)"])
    }

    func send(_ words: [String]) throws(ControlClient.Failure) -> MPDFields { MPDFields(try client.send(words)) }

    func enterIdle() throws(ControlClient.Failure) {
        guard !idling else { return }
        try client.write(["idle"] + Self.subsystems)
        idling = true
    }

    /// The subsystems the box reported, once the socket is readable in idle.
    func idleAnswer() throws(ControlClient.Failure) -> Set<String> {
        idling = false
        return Set(MPDFields(try client.readReply()).all("changed"))
    }

    /// Leaves idle to send commands; what changed meanwhile, if the answer was under way.
    func leaveIdle() throws(ControlClient.Failure) -> Set<String> {
        guard idling else { return [] }
        try client.write(["noidle"])
        return try idleAnswer()
    }

    /// The song's picture: the one embedded in it (`readpicture`), else the folder's
    /// cover (`albumart`). Nil when there is none, it is of an unknown kind, or it is
    /// larger than `maximumBytes` (Snapcast gets no art rather than a huge message).
    func picture(of uri: String, maximumBytes: Int) throws(ControlClient.Failure) -> SnapcastMetadata.Art? {
        for command in ["readpicture", "albumart"] {
            var data: [UInt8] = []
            var type: String?
            while true {
                let reply: (fields: [String], data: [UInt8])
                do throws(ControlClient.Failure) {
                    reply = try client.sendForBinary([command, uri, "\(data.count)"], maximumBytes: Self.chunkBytes)
                } catch .refused {
                    break  // no such picture (or a stream): the next way, or none
                }
                let fields = MPDFields(reply.fields)
                guard let size = fields["size"].flatMap({ Int($0) }), size > 0, !reply.data.isEmpty else { break }
                guard size <= maximumBytes else { return nil }
                type = type ?? fields["type"]
                data += reply.data
                guard data.count < size else {
                    return SnapcastMetadata.Art.fileExtension(type: type, data: data).map { .init(data: Array(data.prefix(size)), fileExtension: $0) }
                }
            }
        }
        return nil
    }
}
