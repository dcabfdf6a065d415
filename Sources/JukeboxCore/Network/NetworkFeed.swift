/// What a download tells and holds while it plays (`HTTPSource`): its news (a station's
/// name, its titles, the network's trouble), its buffer and the rate it plays at. The
/// decoders and the player reach it through `MediaSource.network`, never by the source's
/// type; a file has none.
public protocol NetworkFeed: AnyObject {
    /// The bytes a second the track plays at, once the decoder knows.
    var bytesPerSecond: Double? { get set }
    /// Told when a read starts waiting for the network and when it has its bytes.
    var whileWaiting: ((Bool) -> Void)? { get set }
    /// How much is here ahead of the reader, whether the rest is all here, and any problem.
    var buffered: (bytes: Int64, complete: Bool, problem: NetworkError?) { get }
    /// Hears the station's name and the network's trouble from now on.
    func listen(_ listener: @escaping @Sendable (StreamNews) -> Void)
    /// The latest title whose song the reader has reached, once.
    func titleReached() -> String?
    /// Waits until `bytes` are here ahead of the reader (or all there is).
    func prebuffer(bytes: Int64) throws
    /// The bytes are not what the decoder takes: no copy of them is kept.
    func spoil()
}

/// What a download tells while it plays: a station's name once, its titles as they
/// change, and the network's trouble while it retries.
public enum StreamNews: Sendable, Equatable {
    case station(String)
    case title(String)
    case problem(NetworkError)
}

extension TrackMetadata {
    /// The tags after a stream's `news`; nil when it is no news for the tags (a problem
    /// is the log's).
    func applying(_ news: StreamNews) -> TrackMetadata? {
        switch news {
        case .station(let name):
            var metadata = self
            metadata.stationName = name
            return metadata
        case .title(let title):
            // A new title names a new song: what a tag at the stream's start said (an ID3
            // artist, album, cover) was about another one.
            var fresh = TrackMetadata()
            fresh.stationName = stationName
            fresh.title = title
            return fresh
        case .problem:
            return nil
        }
    }
}
