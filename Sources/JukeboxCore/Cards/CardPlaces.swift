/// Where each card's music was left: the track, the frame and the speed, so the same card
/// back later continues there, even after other cards played in between and after a
/// restart (they are kept in the state file). Pure bookkeeping; `CardService` tells it.
public struct CardPlaces: Sendable, Equatable {
    public struct Place: Sendable, Equatable, Codable {
        public var card: String
        public var path: String
        public var frame: Int64
        public var speed: Double?

        public init(card: String, path: String, frame: Int64, speed: Double? = nil) {
            self.card = card
            self.path = path
            self.frame = frame
            self.speed = speed
        }
    }

    /// More cards than a family has; the oldest places go first past it, so the state
    /// file stays small whatever is done to it.
    public static let limit = 1000

    private var places: [String: Place] = [:]
    /// Cards in the order their places were last set, oldest first.
    private var order: [String] = []

    public init(_ saved: [Place] = []) {
        for place in saved { set(place) }
    }

    public subscript(card: CardID) -> Place? { places[card.text] }

    public mutating func set(_ place: Place) {
        if places.updateValue(place, forKey: place.card) != nil { order.removeAll { $0 == place.card } }
        order.append(place.card)
        if order.count > Self.limit { places[order.removeFirst()] = nil }
    }

    public mutating func remove(_ card: CardID) {
        guard places.removeValue(forKey: card.text) != nil else { return }
        order.removeAll { $0 == card.text }
    }

    /// For the state file, with the playing card's live place (`live`) over its last one.
    public func saved(with live: Place? = nil) -> [Place] {
        var copy = self
        if let live { copy.set(live) }
        return copy.order.compactMap { copy.places[$0] }
    }
}
