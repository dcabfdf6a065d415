/// What the audio thread does about devices coming and going, kept apart from writing
/// audio so it can be tried with made-up events: what a loss means (pause and wait for a
/// device, or carry on on another), when to look for devices (after the kernel announced
/// one, and on a schedule while waiting for one or while playing on one the admin likes
/// less), and which device counts as back. Devices are named by their index in the route,
/// the admin's favourite first; asking whether one is present can open it, so that is
/// asked only when a look is due.
struct DevicePolicy {
    /// What a look found.
    enum Found: Equatable {
        case nothing
        /// A device (this candidate) is there after a loss: the player may resume on it.
        case returned(Int)
        /// A device the admin prefers to the open one is there: move to it.
        case better
    }

    /// What a loss means.
    enum Loss: Equatable {
        /// Another device is there and the admin asked to carry on: play on, on it.
        case carryOn
        /// Pause (if playing) and wait for a device.
        case wait
    }

    /// When the device in use goes: pause, or carry on on the next device present.
    private(set) var onLost: OutputLossPolicy
    /// How often to look while waiting, or while on a device the admin likes less.
    let probeInterval: UInt64
    /// Where the audio goes, as the status says it.
    private(set) var route = RouteState.idle {
        didSet { if route != oldValue { routeMoved = true } }
    }
    /// The route changed since `takeRouteMove`.
    private var routeMoved = false
    /// Set while no device can be opened: the loss being waited out.
    private(set) var awaiting: OutputError?
    /// While waiting: the devices that were there all along (a fallback), which do not
    /// count as one coming back; the next play may still use them.
    private var presentWhenLost: Set<Int> = []
    private var nextProbeAt: UInt64 = 0
    private var announced = false
    private var quickLooksLeft = 0
    /// A card announces itself in parts (control, then each PCM) and can be announced
    /// before it opens: after an announcement that found nothing, look this many more
    /// times, this often.
    static let quickLooks = 6
    static let quickLookInterval: UInt64 = 100_000_000

    init(onLost: OutputLossPolicy, probeInterval: UInt64) {
        self.onLost = onLost
        self.probeInterval = probeInterval
    }

    /// Whether the loop should wake soon to look (else it may sleep long).
    var looksSoon: Bool { awaiting != nil || quickLooksLeft > 0 }

    /// The kernel announced a sound device coming or going: look on the next pass.
    mutating func kernelAnnounced() { announced = true }

    /// A device is set up and plays (`name`).
    mutating func opened(_ name: String) {
        awaiting = nil
        route = .playingOn(name)
    }

    /// The device went away, or none could be opened, at `now`; `hadDevice`: one was open
    /// (and is let go of by now). `anotherPresent` and `present` look at the devices now.
    mutating func lost(_ error: OutputError, playing: Bool, hadDevice: Bool, now: UInt64, firstChoice: String,
                       anotherPresent: () -> Bool, present: () -> [Int]) -> Loss {
        if playing, hadDevice, onLost == .continue, anotherPresent() { return .carryOn }
        awaiting = error
        presentWhenLost = Set(present())
        nextProbeAt = now + probeInterval
        route = hadDevice ? .lost(error.device) : .waitingFor(firstChoice)
        return .wait
    }

    /// Looks for devices if one is due (on each pass of the loop): after an announcement,
    /// or on the schedule, while waiting for a device or while the open one (`activeIndex`)
    /// is not the admin's favourite.
    mutating func look(now: UInt64, activeIndex: Int?, present: () -> [Int], better: () -> Int?) -> Found {
        let worthALook = awaiting != nil || activeIndex.map { $0 > 0 } == true
        let announced = self.announced
        self.announced = false
        guard worthALook, announced || now >= nextProbeAt else { return .nothing }
        nextProbeAt = now + probeInterval
        guard awaiting != nil else { return better() != nil ? .better : .nothing }
        let present = present()
        presentWhenLost.formIntersection(present)  // one that goes and comes back counts
        guard let found = present.first(where: { !presentWhenLost.contains($0) }) else {
            if announced { quickLooksLeft = Self.quickLooks }
            if quickLooksLeft > 0 {
                quickLooksLeft -= 1
                nextProbeAt = now + Self.quickLookInterval
            }
            return .nothing
        }
        awaiting = nil
        route = .idle
        return .returned(found)
    }

    /// The admin changed the devices: the new ones are all worth trying. True when a loss
    /// was being waited out, which the new devices end (the player may resume).
    mutating func rerouted(onLost policy: OutputLossPolicy) -> Bool {
        onLost = policy
        presentWhenLost = []
        guard awaiting != nil else { return false }
        awaiting = nil
        route = .idle
        return true
    }

    /// Whether the route moved since last asked (the player hears of it then).
    mutating func takeRouteMove() -> Bool {
        defer { routeMoved = false }
        return routeMoved
    }
}
