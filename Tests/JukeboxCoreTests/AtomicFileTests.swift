import Foundation
import Testing
@testable import JukeboxCore

/// Every file the box replaces goes through `AtomicFile`: a temporary file made fresh,
/// never through a link planted under its name.
@Suite(.serialized) struct AtomicFileTests {
    let fx = Fixtures.shared

    /// Issue 33 #6: a link under the name is removed, never written through.
    @Test func aFreshFileIsNeverOpenedThroughALink() throws {
        let folder = try fx.scratchFolder("fresh-file")
        let victim = "\(folder)/victim"
        let path = "\(folder)/.x.new"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        let fd = try AtomicFile.createFresh(path)
        #expect(write(fd, "new", 3) == 3)
        close(fd)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    }
}
