/// MPD's commands for the audio outputs: the devices of the route (`[audio] devices`), in
/// priority order, each switched on or off by its position.
extension ControlSession {
    static let outputCommands: [MPDCommand] = [
        .init("outputs", .read, 0...0) { s, _ in
            // The one playing says so.
            let route = s.player.status.route
            return .text(s.outputs.listed.enumerated().map { id, output in
                var entry = "outputid: \(id)\noutputname: \(MPDProtocol.value(output.device))\n"
                entry += "plugin: \(ControlSession.plugin(of: output.device))\noutputenabled: \(output.on ? 1 : 0)\n"
                if case .playingOn(let playing) = route, playing == output.device { entry += "attribute: playing=1\n" }
                return entry
            }.joined())
        },
        .init("enableoutput", .change, 1...1) { s, request in try s.switchOutput(request, on: true) },
        .init("disableoutput", .change, 1...1) { s, request in try s.switchOutput(request, on: false) },
        .init("toggleoutput", .change, 1...1) { s, request in try s.switchOutput(request, on: nil) },
        // MPD's runtime attributes belong to its plugins (ALSA's `dop`, `allowed_formats`);
        // the box's outputs have none, so every name is unsupported, as in MPD.
        .init("outputset", .change, 3...3) { s, request in
            let id = try ControlSession.integer(request.arguments[0], request.name)
            guard s.outputs.listed.indices.contains(id) else { throw MPDProtocol.Ack(code: .noExist, message: "No such audio output") }
            throw MPDProtocol.Ack(code: .argument, message: "Unsupported attribute")
        },
    ]

    /// MPD's name for the kind of output a configured device is.
    private static func plugin(of device: String) -> String {
        if device == NullOutput.deviceName { return "null" }
        return SnapcastTarget.names(device) ? "snapcast" : "alsa"
    }

    /// Switches the output the request names on, off, or (nil) the other way.
    private func switchOutput(_ request: MPDProtocol.Request, on: Bool?) throws -> Reply {
        let id = try Self.integer(request.arguments[0], request.name)
        do {
            if try outputs.set(id, on: on) { announce([.output]) }
        } catch {
            throw MPDProtocol.Ack(code: .noExist, message: "No such audio output")
        }
        return ""
    }
}
