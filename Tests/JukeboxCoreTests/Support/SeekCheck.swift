import Foundation
import Testing
@testable import JukeboxCore

/// For each of `seconds`: a fresh decoder sought to that frame reads (up to 10,000
/// frames) what the whole decode `whole` holds there, sample for sample.
func expectExactSeeks(_ path: String, whole: Data, at seconds: [Double], _ name: String,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
    for second in seconds {
        let decoder = try AudioFile.open(path)
        let frameBytes = decoder.info.bytesPerFrame
        let frame = decoder.info.frame(atSeconds: second)
        try decoder.seek(toFrame: frame)
        #expect(decoder.position == frame, sourceLocation: sourceLocation)
        let part = Data(try decoder.readAll(maxFrames: 10_000))
        let start = Int(frame) * frameBytes
        expectSame(part, whole.subdata(in: start..<min(whole.count, start + 10_000 * frameBytes)), "\(name) at \(second) s",
                   sourceLocation: sourceLocation)
    }
}
