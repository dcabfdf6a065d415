import Foundation

/// The player ends a stream with up to ~110 ms of silence (a padded last period and
/// ten more), so a recording is checked as: exactly the expected audio, then only zeros.
func isAudioThenSilence(_ recorded: Data, _ expected: Data, bytesPerFrame: Int = 4, sampleRate: Int = 44_100) -> Bool {
    guard recorded.count >= expected.count, recorded.prefix(expected.count) == expected else { return false }
    let tail = recorded.dropFirst(expected.count)
    return tail.count <= (sampleRate / 8) * bytesPerFrame && tail.allSatisfy { $0 == 0 }
}
