import Foundation
import Testing
@testable import JukeboxCore

/// The stream plugin's pure parts: its framing, its JSON-RPC, what snapserver's requests
/// become on the box, and the box's replies as Snapcast's properties.
@Suite struct SnapcastPluginTests {
    @Test func linesAreSplitAndAnOverlongOneIsDroppedAlone() {
        var splitter = LineSplitter(maximumBytes: 8)
        #expect(splitter.feed(Array("abc\r\nde".utf8)) == [.line("abc")])
        #expect(splitter.feed(Array("f\n".utf8)) == [.line("def")])
        // 20 bytes of garbage, then a good line: memory never holds more than 8.
        #expect(splitter.feed(Array(String(repeating: "x", count: 20).utf8)) == [])
        #expect(splitter.feed(Array("\nok\n".utf8)) == [.overlong(bytes: 20), .line("ok")])
        #expect(splitter.feed(Array("12345678\n".utf8)) == [.line("12345678")])
        #expect(splitter.feed(Array("tail".utf8)) == [])
        #expect(splitter.finish() == [.line("tail")])
    }

    @Test func requestsAreReadAndGarbageGetsJSONRPCErrors() {
        let request = JSONRPC.read(#"{"id": 7, "jsonrpc": "2.0", "method": "Plugin.Stream.Player.Control", "params": {"command": "next"}}"#)
        #expect(request == .request(.init(id: .int(7), method: PluginRequest.control, params: .object(["command": .string("next")]))))
        #expect(JSONRPC.read("not json {") == .invalid(id: .null, .init(code: -32700, message: "Parse error: not JSON")))
        #expect(JSONRPC.read("[1, 2]") == .invalid(id: .null, .init(code: -32600, message: "Invalid Request: not a JSON object")))
        #expect(JSONRPC.read(#"{"id": "a", "method": "x"}"#) == .invalid(id: .string("a"), .init(code: -32600, message: "Invalid Request: jsonrpc must be \"2.0\"")))
        #expect(JSONRPC.read(#"{"id": 1, "jsonrpc": "2.0", "result": "ok"}"#) == .ignored)
        #expect(JSONRPC.result(id: .int(1), .string("ok")) == #"{"id":1,"jsonrpc":"2.0","result":"ok"}"#)
        #expect(JSONRPC.error(id: .null, .init(code: -32601, message: "Method not found: x"))
                == #"{"error":{"code":-32601,"message":"Method not found: x"},"id":null,"jsonrpc":"2.0"}"#)
        #expect(JSONRPC.notification("Plugin.Stream.Ready") == #"{"jsonrpc":"2.0","method":"Plugin.Stream.Ready"}"#)
        // Numbers stay numbers (1 is not true), and integers integers.
        #expect(JSONValue.parse(#"{"a": 1, "b": 0, "c": true, "d": 2.5, "e": null, "f": ["x"]}"#)
                == .object(["a": .int(1), "b": .int(0), "c": .bool(true), "d": .double(2.5), "e": .null, "f": .array([.string("x")])]))
        // Deep nesting is refused by the decoder, not a crash.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONRPC.read(deep) == .invalid(id: .null, .init(code: -32700, message: "Parse error: not JSON")))
    }

    func plan(_ method: String, _ params: JSONValue?) -> Result<PluginRequest, JSONRPC.Failure> {
        Result { () throws(JSONRPC.Failure) in try PluginRequest.from(.init(id: .int(1), method: method, params: params)) }
    }

    func control(_ command: String, _ params: [String: JSONValue]? = nil) -> Result<PluginRequest, JSONRPC.Failure> {
        var fields: [String: JSONValue] = ["command": .string(command)]
        if let params { fields["params"] = .object(params) }
        return plan(PluginRequest.control, .object(fields))
    }

    @Test func controlsBecomeTheBoxsCommands() {
        #expect(control("play") == .success(.run([["play"]])))
        #expect(control("pause") == .success(.run([["pause", "1"]])))
        #expect(control("playPause") == .success(.playPause))
        #expect(control("stop") == .success(.run([["stop"]])))
        #expect(control("next") == .success(.run([["next"]])))
        #expect(control("previous") == .success(.run([["previous"]])))
        #expect(control("seek", ["offset": .double(-2.5)]) == .success(.run([["seekcur", "-2.5"]])))
        #expect(control("seek", ["offset": .int(10)]) == .success(.run([["seekcur", "+10.0"]])))
        #expect(control("setPosition", ["position": .double(17.827)]) == .success(.run([["seekcur", "17.827"]])))
        #expect(control("setPosition", ["position": .double(-1)]) == .failure(.invalidParams("setPosition needs params {\"position\": SECONDS} from 0")))
        #expect(control("dance") == .failure(.invalidParams("unknown command dance: play, pause, playPause, stop, next, previous, seek or setPosition")))
        #expect(plan(PluginRequest.getPropertiesMethod, nil) == .success(.getProperties))
        #expect(plan("Plugin.Stream.Player.GetMetadata", nil) == .failure(.init(code: -32601, message: "Method not found: Plugin.Stream.Player.GetMetadata")))
    }

    @Test func propertiesBecomeTheBoxsSwitches() {
        func set(_ properties: [String: JSONValue]) -> Result<PluginRequest, JSONRPC.Failure> { plan(PluginRequest.setProperty, .object(properties)) }
        #expect(set(["loopStatus": .string("none")]) == .success(.run([["repeat", "0"], ["single", "0"]])))
        #expect(set(["loopStatus": .string("track")]) == .success(.run([["repeat", "1"], ["single", "1"]])))
        #expect(set(["loopStatus": .string("playlist")]) == .success(.run([["repeat", "1"], ["single", "0"]])))
        #expect(set(["shuffle": .bool(true)]) == .success(.run([["random", "1"]])))
        #expect(set(["volume": .int(142)]) == .success(.run([["setvol", "100"]])))
        #expect(set(["volume": .double(33.4)]) == .success(.run([["setvol", "33"]])))
        #expect(set(["rate": .double(1.25)]) == .success(.run([["speed", "1.25"]])))
        #expect(set(["shuffle": .bool(false), "volume": .int(5)]) == .success(.run([["random", "0"], ["setvol", "5"]])))
        #expect(set(["mute": .bool(true)]) == .failure(.invalidParams("the jukebox has no mute: set the volume to 0")))
        #expect(set(["loopStatus": .string("forever")]) == .failure(.invalidParams("loopStatus is none, track or playlist")))
        #expect(plan(PluginRequest.setProperty, .array([])) == .failure(.invalidParams("SetProperty needs an object such as {\"volume\": 50}")))
    }

    @Test func theStatusBecomesProperties() {
        let playing = PlayerProperties(status: MPDFields([
            "volume: 42", "repeat: 1", "random: 1", "single: 0", "consume: 0", "playlistlength: 3", "state: play",
            "song: 1", "songid: 2", "time: 12:180", "elapsed: 12.345", "duration: 180.000", "speed: 1.5",
        ]))
        #expect(playing.json == [
            "playbackStatus": .string("playing"), "loopStatus": .string("playlist"), "shuffle": .bool(true),
            "volume": .int(42), "rate": .double(1.5), "position": .double(12.345),
            "canGoNext": .bool(true), "canGoPrevious": .bool(true), "canPlay": .bool(true), "canPause": .bool(true),
            "canSeek": .bool(true), "canControl": .bool(true),
        ])
        let stopped = PlayerProperties(status: MPDFields(["volume: -1", "repeat: 1", "random: 0", "single: 1", "playlistlength: 0", "state: stop"]))
        #expect(stopped.json == [
            "playbackStatus": .string("stopped"), "loopStatus": .string("track"), "shuffle": .bool(false), "rate": .double(1),
            "canGoNext": .bool(false), "canGoPrevious": .bool(false), "canPlay": .bool(false), "canPause": .bool(false),
            "canSeek": .bool(false), "canControl": .bool(true),
        ])
        // single without repeat stops after the track: MPRIS calls that none.
        #expect(PlayerProperties(status: MPDFields(["repeat: 0", "single: 1", "state: pause"])).loopStatus == .none)
    }

    @Test func theCurrentSongBecomesMetadata() {
        let song = MPDFields([
            "file: Album/03 Plucked.flac", "Title: Plucked", "Artist: Test Band", "Artist: Guest", "Album: Fixtures",
            "AlbumArtist: Various", "Track: 3/12", "Disc: 1/2", "Date: 2026", "Genre: Test", "Time: 6",
            "duration: 6.000", "Pos: 0", "Id: 5",
        ])
        let metadata = SnapcastMetadata(song: song, art: .init(data: [0x89, 0x50, 0x4E], fileExtension: "png"))
        #expect(metadata.json == [
            "url": .string("Album/03 Plucked.flac"), "trackId": .string("5"), "title": .string("Plucked"),
            "artist": .array([.string("Test Band"), .string("Guest")]), "album": .string("Fixtures"),
            "albumArtist": .array([.string("Various")]), "trackNumber": .int(3), "discNumber": .int(1),
            "contentCreated": .string("2026"), "genre": .array([.string("Test")]), "duration": .double(6),
            "artData": .object(["data": .string("iVBO"), "extension": .string("png")]),
        ])
        #expect(SnapcastMetadata(song: MPDFields([])).json == [:])
        #expect(SnapcastMetadata(song: MPDFields([])).identity == nil)
        #expect(SnapcastMetadata(song: song).identity != SnapcastMetadata(song: MPDFields(["file: Album/03 Plucked.flac", "Id: 6"])).identity)
    }

    @Test func coversAreNamedByTypeOrBytes() {
        #expect(SnapcastMetadata.Art.fileExtension(type: "image/jpeg", data: []) == "jpg")
        #expect(SnapcastMetadata.Art.fileExtension(type: nil, data: [0xFF, 0xD8, 0xFF, 0xE0]) == "jpg")
        #expect(SnapcastMetadata.Art.fileExtension(type: nil, data: [0x89, 0x50, 0x4E, 0x47]) == "png")
        #expect(SnapcastMetadata.Art.fileExtension(type: nil, data: [1, 2, 3, 4]) == nil)
    }
}
