/// What snapserver asks of its stream plugin, in the box's MPD commands.
public enum PluginRequest: Equatable, Sendable {
    case getProperties
    /// These commands in order; the first refusal ends them and is the answer.
    case run([[String]])
    /// Pause when playing, else play: decided on the box's state when it arrives.
    case playPause

    public static let control = "Plugin.Stream.Player.Control"
    public static let setProperty = "Plugin.Stream.Player.SetProperty"
    public static let getPropertiesMethod = "Plugin.Stream.Player.GetProperties"

    public static func from(_ request: JSONRPC.Request) throws(JSONRPC.Failure) -> PluginRequest {
        switch request.method {
        case getPropertiesMethod: return .getProperties
        case control: return try controlCommand(request.params)
        case setProperty:
            guard case .object(let properties) = request.params, !properties.isEmpty else {
                throw .invalidParams("SetProperty needs an object such as {\"volume\": 50}")
            }
            var commands: [[String]] = []
            // Sorted, so one request setting several reads the same each time.
            for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
                commands += try property(name, value)
            }
            return .run(commands)
        default:
            throw .init(code: JSONRPC.Failure.methodNotFoundCode, message: "Method not found: \(request.method.prefix(80))")
        }
    }

    private static func controlCommand(_ params: JSONValue?) throws(JSONRPC.Failure) -> PluginRequest {
        guard let command = params?["command"]?.string else { throw .invalidParams("Control needs a command, such as {\"command\": \"next\"}") }
        let arguments = params?["params"]
        switch command {
        case "play": return .run([["play"]])
        case "pause": return .run([["pause", "1"]])
        case "playPause": return .playPause
        case "stop": return .run([["stop"]])
        case "next": return .run([["next"]])
        case "previous": return .run([["previous"]])
        case "seek":
            guard let offset = arguments?["offset"]?.number, offset.isFinite else { throw .invalidParams("seek needs params {\"offset\": SECONDS}") }
            return .run([["seekcur", (offset < 0 ? "" : "+") + "\(offset)"]])
        case "setPosition":
            guard let position = arguments?["position"]?.number, position.isFinite, position >= 0 else {
                throw .invalidParams("setPosition needs params {\"position\": SECONDS} from 0")
            }
            return .run([["seekcur", "\(position)"]])
        default:
            throw .invalidParams("unknown command \(command.prefix(40)): play, pause, playPause, stop, next, previous, seek or setPosition")
        }
    }

    private static func property(_ name: String, _ value: JSONValue) throws(JSONRPC.Failure) -> [[String]] {
        switch name {
        case "loopStatus":
            switch value.string {
            case "none": return [["repeat", "0"], ["single", "0"]]
            case "track": return [["repeat", "1"], ["single", "1"]]
            case "playlist": return [["repeat", "1"], ["single", "0"]]
            default: throw .invalidParams("loopStatus is none, track or playlist")
            }
        case "shuffle":
            guard let on = value.bool else { throw .invalidParams("shuffle is true or false") }
            return [["random", on ? "1" : "0"]]
        case "volume":
            guard let volume = value.number, volume.isFinite else { throw .invalidParams("volume is a number from 0 to 100") }
            return [["setvol", "\(Int(min(max(volume, 0), 100).rounded()))"]]
        case "rate":
            // The box's speed keeps the pitch (audiobooks); it refuses what it cannot play.
            guard let rate = value.number, rate.isFinite, rate > 0 else { throw .invalidParams("rate is a number above 0") }
            return [["speed", "\(rate)"]]
        case "mute":
            throw .invalidParams("the jukebox has no mute: set the volume to 0")
        default:
            throw .invalidParams("unknown property \(name.prefix(40)): loopStatus, shuffle, volume or rate")
        }
    }
}
