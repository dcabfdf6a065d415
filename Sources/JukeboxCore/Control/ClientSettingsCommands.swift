/// MPD's settings of one connection: the tags it wants in song listings (`tagtypes`) and
/// the protocol features it turns on (`protocol`, MPD 0.24). Both last until it disconnects.
extension ControlSession {
    /// A protocol feature a client may turn on, by MPD's name for it.
    enum ProtocolFeature: String, CaseIterable {
        /// `lsinfo` of the root leaves out the stored playlists.
        case hidePlaylistsInRoot = "hide_playlists_in_root"

        /// By name, in any case, as MPD reads it.
        init?(named name: String) {
            guard let found = Self.allCases.first(where: { $0.rawValue == name.lowercased() }) else { return nil }
            self = found
        }
    }

    static let clientSettingsCommands: [MPDCommand] = [
        .init("tagtypes", .read, 0...) { s, request in
            let (sub, rest) = (request.arguments.first, request.arguments.dropFirst())
            switch sub {
            case nil: return .text(s.listedTags.map { "tagtype: \($0.rawValue)\n" }.joined())
            case "available": return .text(MPDTag.offered.map { "tagtype: \($0.rawValue)\n" }.joined())
            case "all": try ControlSession.none(rest); s.tags = Set(MPDTag.offered)
            case "clear": try ControlSession.none(rest); s.tags = []
            case "enable": s.tags.formUnion(try ControlSession.tags(rest))
            case "disable": s.tags.subtract(try ControlSession.tags(rest))
            case "reset":
                // Cleared first: MPD leaves none when the names are missing or wrong.
                s.tags = []
                s.tags = try ControlSession.tags(rest)
            default: throw ControlSession.unknownSubcommand
            }
            return ""
        },
        // MPD's permission for it is none at all; the box's least is `read`, which every client has.
        .init("protocol", .read, 0...) { s, request in
            let (sub, rest) = (request.arguments.first, request.arguments.dropFirst())
            switch sub {
            case nil: return .text(ProtocolFeature.allCases.filter(s.features.contains).map { "feature: \($0.rawValue)\n" }.joined())
            case "available": try ControlSession.none(rest); return .text(ProtocolFeature.allCases.map { "feature: \($0.rawValue)\n" }.joined())
            case "all": try ControlSession.none(rest); s.features = Set(ProtocolFeature.allCases)
            case "clear": try ControlSession.none(rest); s.features = []
            case "enable": s.features.formUnion(try ControlSession.features(rest))
            case "disable": s.features.subtract(try ControlSession.features(rest))
            default: throw ControlSession.unknownSubcommand
            }
            return ""
        },
    ]

    private static let unknownSubcommand = MPDProtocol.Ack(code: .argument, message: "Unknown sub command")

    /// A sub-command that takes no names was given some.
    private static func none(_ rest: ArraySlice<String>) throws {
        guard rest.isEmpty else { throw MPDProtocol.Ack(code: .argument, message: "Too many arguments") }
    }

    /// The tags named, at least one, each known: MPD's words for a missing or an unknown one.
    private static func tags(_ names: ArraySlice<String>) throws -> Set<MPDTag> {
        guard !names.isEmpty else { throw MPDProtocol.Ack(code: .argument, message: "Not enough arguments") }
        return Set(try names.map { name in
            guard let tag = MPDTag(named: name) else { throw MPDProtocol.Ack(code: .argument, message: "Unknown tag type") }
            return tag
        })
    }

    /// The features named, as `tags`: MPD 0.24.2 spells its refusal "protcol".
    private static func features(_ names: ArraySlice<String>) throws -> Set<ProtocolFeature> {
        guard !names.isEmpty else { throw MPDProtocol.Ack(code: .argument, message: "Not enough arguments") }
        return Set(try names.map { name in
            guard let feature = ProtocolFeature(named: name) else { throw MPDProtocol.Ack(code: .argument, message: "Unknown protcol feature") }
            return feature
        })
    }
}
