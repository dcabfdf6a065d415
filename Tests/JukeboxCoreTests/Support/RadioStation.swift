import Foundation

/// An internet radio station as Icecast and Shoutcast run them, small enough for a test:
/// on a loopback port, it sends an MP3 in a loop to each listener, with `icy-name`, and
/// (when the listener asks with `Icy-MetaData: 1`) a `StreamTitle` block every
/// `metaInterval` bytes. The title moves to the next song every `bytesPerSong` bytes.
/// After a burst at connect (as Icecast's burst-on-connect), it sends at about
/// `bytesPerSecond`. `opening` bytes (an ID3 tag, as some stations send) come first, once
/// per listener, counted as audio.
final class RadioStation: @unchecked Sendable {
    let port: Int
    let name = "Jukebox Test FM"
    static let metaInterval = 8192
    private let audio: [UInt8]
    private let opening: [UInt8]
    private let bytesPerSecond: Int
    private let bytesPerSong: Int
    private let listener: Int32
    private let stopping = ConditionFlag()

    init(playing file: String, bytesPerSecond: Int = 24 << 10, bytesPerSong: Int = 48 << 10, opening: [UInt8] = []) throws {
        audio = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        self.opening = opening
        self.bytesPerSecond = bytesPerSecond
        self.bytesPerSong = bytesPerSong
        (listener, port) = try LoopbackListener.open()
        Thread { [self] in acceptListeners() }.start()
    }

    deinit {
        stopping.set()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    var url: String { "http://127.0.0.1:\(port)/stream" }

    static func title(_ song: Int) -> String { "Test Band - Song \(song)" }

    private func acceptListeners() {
        while !stopping.isSet {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var request = [UInt8](repeating: 0, count: 4096)
        let n = recv(client, &request, request.count, 0)
        guard n > 0 else { return }
        let wantsTitles = String(decoding: request[..<n], as: UTF8.self).lowercased().contains("icy-metadata: 1")
        var head = "HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-name: \(name)\r\n"
        if wantsTitles { head += "icy-metaint: \(Self.metaInterval)\r\n" }
        guard send(Array((head + "\r\n").utf8)) else { return }

        var sent = 0
        var untilTitle = Self.metaInterval
        var position = 0
        let started = Date()
        func send(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }
        while !stopping.isSet {
            let burst = 32 << 10
            let due = burst + Int(Date().timeIntervalSince(started) * Double(bytesPerSecond))
            if sent >= due {
                usleep(20_000)
                continue
            }
            let inOpening = sent < opening.count
            let source = inOpening ? opening : audio
            let at = inOpening ? sent : position
            var chunk = min(1024, source.count - at)
            if wantsTitles { chunk = min(chunk, untilTitle) }
            guard send(Array(source[at..<(at + chunk)])) else { return }
            sent += chunk
            if !inOpening { position = (position + chunk) % audio.count }
            guard wantsTitles else { continue }
            untilTitle -= chunk
            if untilTitle == 0 {
                untilTitle = Self.metaInterval
                var text = Array("StreamTitle='\(Self.title(1 + sent / bytesPerSong))';".utf8)
                text += [UInt8](repeating: 0, count: (16 - text.count % 16) % 16)
                guard send([UInt8(text.count / 16)] + text) else { return }
            }
        }
    }
}

/// A flag set once, read from any thread.
final class ConditionFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
