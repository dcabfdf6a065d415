import Foundation
import Testing
@testable import JukeboxCore

/// Files uploaded from the box's web page: each rule alone, then the folder on the real
/// file system (a temporary root holding the music folder and a folder outside it, listed
/// before and after, so nothing is ever written where it should not be).
@Suite(.serialized) struct UploadTests {
    /// A music folder and a folder beside it, removed at the end.
    final class Scratch {
        let root: String
        var music: String { "\(root)/music" }
        var uploads: String { "\(root)/music/Uploads" }
        var outside: String { "\(root)/outside" }

        init() throws {
            root = NSTemporaryDirectory() + "jukebox-uploads-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: "\(root)/music", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(root)/outside", withIntermediateDirectories: true)
            try Data("not music".utf8).write(to: URL(fileURLWithPath: "\(root)/outside/keep.txt"))
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Every path under the root (links not followed), relative to it.
        var listing: [String] {
            let found = (try? Tools.run("find", [root, "-mindepth", "1"]).text) ?? ""
            return found.split(separator: "\n").map { String($0.dropFirst(root.count + 1)) }.sorted()
        }

        func folder(_ limits: UploadLimits = UploadTests.roomy, folder: String = "Uploads") -> UploadFolder {
            UploadFolder(musicDirectory: music, folder: folder, limits: limits)
        }
    }

    static let roomy = UploadLimits(maxBytes: 1 << 30, maxAtOnce: 2, reserveBytes: 0)

    /// Sends `bytes` in `chunk`-sized pieces and finishes: the library path, or the refusal.
    static func upload(_ folder: UploadFolder, _ path: String, _ bytes: [UInt8], declared: Int64? = nil,
                       chunk: Int = 16 << 10) -> Result<String, UploadRefusal> {
        do throws(UploadRefusal) {
            let upload = try folder.begin(relativePath: path, declaredBytes: declared ?? Int64(bytes.count))
            var at = 0
            while at < bytes.count {
                let end = min(bytes.count, at + chunk)
                try Self.write(upload, bytes[at..<end])
                at = end
            }
            return .success(try upload.finish())
        } catch {
            return .failure(error)
        }
    }

    /// One chunk, as the route gives it.
    static func write(_ upload: UploadInProgress, _ bytes: some ContiguousBytes) throws(UploadRefusal) {
        try bytes.withUnsafeBytes { raw in Result { () throws(UploadRefusal) in try upload.write(raw) } }.get()
    }

    static func refusal<T>(_ result: Result<T, UploadRefusal>) -> UploadRefusal? {
        if case .failure(let refusal) = result { return refusal }
        return nil
    }

    static func refusal(_ body: () throws(UploadRefusal) -> Void) -> UploadRefusal? {
        do throws(UploadRefusal) { try body() } catch { return error }
        return nil
    }

    /// A real FLAC file, made by the library's own encoder: `seconds` of a tone.
    static func flac(seconds: Double, rate: Int = 8000, channels: Int = 1) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "jukebox-upload-tone-\(UUID().uuidString).flac"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try FLACFileWriter(path: path, sampleRate: rate, channels: channels, tags: [("TITLE", "Tone")])
        let frames = Int(seconds * Double(rate))
        var state: UInt32 = 1
        let pcm: [Int16] = (0..<frames * channels).map { i in
            state = state &* 1_664_525 &+ 1_013_904_223  // a little noise: it compresses less
            return Int16(sin(Double(i / channels) * 0.07) * 8000) &+ Int16(truncatingIfNeeded: state >> 24) / 8
        }
        try writer.write(pcm)
        try writer.finish()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A real Opus file from opusenc.
    static func opus() throws -> [UInt8] {
        let base = NSTemporaryDirectory() + "jukebox-upload-opus-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: base + ".wav")
            try? FileManager.default.removeItem(atPath: base + ".opus")
        }
        try Tools.run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", base + ".wav", "synth", "1", "sine", "440", "gain", "-6"])
        try Tools.run("opusenc", ["--quiet", base + ".wav", base + ".opus"])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: base + ".opus")))
    }

    // MARK: - Names

    @Test func namesThatLeaveHideOrTripAreRefused() {
        let bad: [String] = [
            "", "../x.mp3", "a/../../x.mp3", "/etc/x.mp3", "a\u{0}b.mp3", "a\nb.mp3", "a\u{7F}b.mp3", "a\u{85}b.mp3",
            "a\\b.mp3", "..\\x.mp3", "a//b.mp3", "a/", "./x.mp3", "a/./b.mp3", ".hidden.mp3", "a/.git/x.mp3",
            ".upload-1234.part", String(repeating: "a", count: 300) + ".mp3",
            Array(repeating: "d", count: 8).joined(separator: "/") + "/x.mp3",
            Array(repeating: String(repeating: "e", count: 250), count: 5).joined(separator: "/") + ".mp3",
        ]
        for name in bad {
            let refusal = Self.refusal { () throws(UploadRefusal) in _ = try UploadName(name) }
            #expect(refusal?.status == 400, "\(name.debugDescription): \(String(describing: refusal))")
        }
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try UploadName("/etc/x.mp3") }?.reason.contains("absolute") == true)
        // No control character is ever shown back.
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try UploadName("a\u{0}b.mp3") }?.reason == "the name holds a control character")
    }

    @Test func namesOfMusicInFoldersAreTaken() throws {
        let name = try UploadName("Artist/Album (2026)/CD 1/01 Café – Song.FLAC")
        #expect(name.folders == ["Artist", "Album (2026)", "CD 1"])
        #expect(name.fileName == "01 Café – Song.FLAC")
        #expect(name.fileExtension == "flac")
        let deepest = Array(repeating: "d", count: UploadName.maxLevels - 1).joined(separator: "/") + "/x.opus"
        #expect(try UploadName(deepest).folders.count == UploadName.maxLevels - 1)
        #expect(try UploadName(String(repeating: "a", count: 250) + ".mp3").fileName.utf8.count == 254)
    }

    @Test func anythingButPlayableMusicIsRefusedByName() {
        for (name, shown) in [("x.xyz", "(.xyz)"), ("cover.jpg", "(.jpg)"), ("x.aiff", "(.aiff)"), ("x.wma", "(.wma)"),
                              ("list.m3u", "(.m3u)"), ("README", "(README has no extension)")] {
            let refusal = Self.refusal { () throws(UploadRefusal) in _ = try UploadName(name) }
            #expect(refusal == UploadRefusal(status: 415, reason: "not a music file the box plays \(shown)"), "\(name)")
        }
        // Every name the upload takes is one the library scan counts as music.
        for ext in ["flac", "mp3", "mp2", "wav", "ogg", "oga", "opus", "m4a", "m4b", "mp4"] {
            #expect(UploadSignature(fileExtension: ext) != nil, "\(ext)")
            #expect(LibraryScanner.audioExtensions.contains(ext))
        }
    }

    // MARK: - Signatures

    @Test func theFirstBytesMustBeTheFormatTheNameSays() {
        func head(_ text: String, _ rest: Int = 64) -> [UInt8] { Array(text.utf8) + [UInt8](repeating: 0, count: rest) }
        let zeros = [UInt8](repeating: 0, count: 64 << 10)
        let cases: [(String, [UInt8], Bool)] = [
            ("flac", head("fLaC"), true), ("flac", head("OggS"), false), ("flac", zeros, false),
            ("flac", head("ID3\u{4}\0\0\0\0\0\u{10}"), true),
            ("ogg", head("OggS"), true), ("opus", head("OggS"), true), ("opus", head("fLaC"), false),
            ("wav", head("RIFF\0\0\0\0WAVE"), true), ("wav", head("RIFF\0\0\0\0AVI "), false),
            ("m4a", head("\0\0\0\u{20}ftypM4A "), true), ("m4b", head("\0\0\0\u{20}moov"), false),
            ("mp3", head("ID3\u{3}\0\0\0\0\0\u{10}"), true), ("mp3", zeros, false), ("mp3", head("fLaC"), false),
        ]
        for (ext, bytes, plays) in cases {
            #expect(UploadSignature(fileExtension: ext)?.matches(head: bytes) == plays, "\(ext) \(bytes.prefix(12))")
        }
        // Two MPEG-1 layer III frames (128 kbit/s, 44.1 kHz: 417 bytes each).
        var frames = [UInt8](repeating: 0, count: 1000)
        for at in [0, 417] { frames.replaceSubrange(at..<at + 4, with: [0xFF, 0xFB, 0x90, 0x00]) }
        #expect(UploadSignature(fileExtension: "mp3")?.matches(head: frames) == true)
        #expect(Self.refusal { () throws(UploadRefusal) in try UploadSignature(fileExtension: "flac")!.check(head: zeros) }
                == UploadRefusal(status: 415, reason: "this is not a FLAC file"))
    }

    // MARK: - Sizes, room, slots

    @Test func theLengthMustBeGivenWithinTheLimitAndKept() throws {
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try UploadSize(declared: nil, limit: 100) }
                == UploadRefusal(status: 411, reason: "an upload needs a Content-Length"))
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try UploadSize(declared: 101, limit: 100) }?.status == 413)
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try UploadSize(declared: -1, limit: 100) }?.status == 400)
        var size = try UploadSize(declared: 100, limit: 100)
        try size.arrive(60)
        #expect(Self.refusal { () throws(UploadRefusal) in try size.checkComplete() }
                == UploadRefusal(status: 400, reason: "the upload stopped early (60 of 100 bytes)"))
        #expect(Self.refusal { () throws(UploadRefusal) in try size.arrive(41) }?.status == 413)
        try size.arrive(40)
        try size.checkComplete()
    }

    @Test func theDiskKeepsItsReserve() {
        let mb = UploadLimits.megabyte
        #expect(Self.refusal { () throws(UploadRefusal) in try UploadDiskRoom.check(freeBytes: 300 * mb, declared: 150 * mb, reserve: 200 * mb) }
                == UploadRefusal(status: 507, reason: "the disk is nearly full (300 MB free, 200 MB kept free)"))
        #expect(Self.refusal { () throws(UploadRefusal) in try UploadDiskRoom.check(freeBytes: 300 * mb, declared: 100 * mb, reserve: 200 * mb) } == nil)
    }

    @Test func slotsAreCountedAndFreed() throws {
        let slots = UploadSlots(limit: 2)
        try slots.take("a")
        try slots.take("b")
        #expect(Self.refusal { () throws(UploadRefusal) in try slots.take("c") } == UploadRefusal(status: 429, reason: "2 uploads at once at most"))
        slots.free("a")
        try slots.take("c")
        #expect(slots.isActive("b") && slots.isActive("c") && !slots.isActive("a"))
    }

    // MARK: - The folder, on the file system

    @Test func badNamesAreRefusedBeforeAnythingIsMade() throws {
        let scratch = try Scratch()
        let before = scratch.listing
        let folder = scratch.folder()
        for name in ["../x.mp3", "/etc/x.mp3", "a\u{0}b.mp3", String(repeating: "n", count: 300) + ".flac",
                     ".hidden.flac", "Album/.hidden/x.flac", "a\\b.mp3", "x.xyz"] {
            let refusal = Self.refusal(Self.upload(folder, name, Array("fLaC".utf8)))
            #expect(refusal?.status == (name.hasSuffix(".xyz") ? 415 : 400), "\(name.debugDescription): \(String(describing: refusal))")
        }
        #expect(scratch.listing == before)
        #expect(folder.uploadsInProgress == 0)
    }

    @Test func sizesAreCheckedBeforeAndWhileWriting() throws {
        let scratch = try Scratch()
        let folder = scratch.folder(UploadLimits(maxBytes: 100 << 10, maxAtOnce: 2, reserveBytes: 0))
        let before = scratch.listing
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try folder.begin(relativePath: "x.flac", declaredBytes: nil) }?.status == 411)
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try folder.begin(relativePath: "x.flac", declaredBytes: 100 << 10 + 1) }?.status == 413)
        #expect(scratch.listing == before)

        let tone = try Self.flac(seconds: 1)
        let more = Self.refusal(Self.upload(folder, "more.flac", tone, declared: Int64(tone.count - 10)))
        #expect(more == UploadRefusal(status: 413, reason: "more bytes arrived than the Content-Length said (\(tone.count - 10))"))
        let early = Self.refusal(Self.upload(folder, "early.flac", Array(tone.prefix(100)), declared: Int64(tone.count)))
        #expect(early == UploadRefusal(status: 400, reason: "the upload stopped early (100 of \(tone.count) bytes)"))
        #expect(scratch.listing == (before + ["music/Uploads"]).sorted())
        #expect(folder.uploadsInProgress == 0)
    }

    @Test func aDiskReserveBiggerThanTheFreeSpaceRefusesFirst() throws {
        let scratch = try Scratch()
        let folder = scratch.folder(UploadLimits(maxBytes: 1 << 30, maxAtOnce: 2, reserveBytes: Int64(1) << 60))
        let refusal = Self.refusal(Self.upload(folder, "x.flac", try Self.flac(seconds: 1)))
        #expect(refusal?.status == 507)
        #expect(refusal?.reason.hasPrefix("the disk is nearly full (") == true, "\(String(describing: refusal))")
        #expect(refusal?.reason.hasSuffix(" MB free, \(1 << 40) MB kept free)") == true, "\(String(describing: refusal))")
        #expect(!scratch.listing.contains { $0.contains(".upload-") })
    }

    @Test func onlySoManyAtOnceAndSlotsComeBack() throws {
        let scratch = try Scratch()
        let folder = scratch.folder()
        let first = try folder.begin(relativePath: "a.flac", declaredBytes: 10)
        var second: UploadInProgress? = try folder.begin(relativePath: "b.flac", declaredBytes: 10)
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try folder.begin(relativePath: "c.flac", declaredBytes: 10) }
                == UploadRefusal(status: 429, reason: "2 uploads at once at most"))
        first.abandon()
        first.abandon()  // twice is fine
        let third = try folder.begin(relativePath: "c.flac", declaredBytes: 10)
        #expect(folder.uploadsInProgress == 2)
        second = nil  // gone without a word: its slot and file go too
        #expect(second == nil && folder.uploadsInProgress == 1)
        third.abandon()
        #expect(folder.uploadsInProgress == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.uploads).isEmpty)
    }

    @Test func anUploadEndsOnceAndAbandonNeverTakesAFinishedFile() throws {
        let scratch = try Scratch()
        let folder = scratch.folder()
        let tone = try Self.flac(seconds: 0.5)
        let done = try folder.begin(relativePath: "Done.flac", declaredBytes: Int64(tone.count))
        try Self.write(done, tone)
        #expect(try done.finish() == "Uploads/Done.flac")
        done.abandon()
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try done.finish() }?.status == 500)
        #expect(FileManager.default.fileExists(atPath: "\(scratch.uploads)/Done.flac"))
        let dropped = try folder.begin(relativePath: "Dropped/x.flac", declaredBytes: Int64(tone.count))
        try Self.write(dropped, tone.prefix(1000))
        dropped.abandon()
        #expect(Self.refusal { () throws(UploadRefusal) in try Self.write(dropped, tone.suffix(10)) }
                == UploadRefusal(status: 400, reason: "the upload of Uploads/Dropped/x.flac was abandoned"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.uploads) == ["Done.flac"])
        #expect(folder.uploadsInProgress == 0)
    }

    @Test func aLinkOnTheWayIsNeverFollowed() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.uploads, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(scratch.uploads)/Evil", withDestinationPath: scratch.outside)
        try FileManager.default.createSymbolicLink(atPath: "\(scratch.music)/Linked", withDestinationPath: scratch.outside)
        let before = scratch.listing
        let tone = try Self.flac(seconds: 1)
        #expect(Self.refusal(Self.upload(scratch.folder(), "Evil/x.flac", tone))
                == UploadRefusal(status: 400, reason: "Uploads/Evil is a symbolic link"))
        #expect(Self.refusal(Self.upload(scratch.folder(), "Evil/deeper/x.flac", tone))?.status == 400)
        // The upload folder itself may not be a link either.
        #expect(Self.refusal(Self.upload(scratch.folder(folder: "Linked"), "x.flac", tone))
                == UploadRefusal(status: 400, reason: "Linked is a symbolic link"))
        // Nor the file's own name (it is taken: never written through).
        try FileManager.default.createSymbolicLink(atPath: "\(scratch.uploads)/taken.flac", withDestinationPath: "\(scratch.outside)/new.flac")
        #expect(Self.refusal(Self.upload(scratch.folder(), "taken.flac", tone))?.status == 409)
        #expect(scratch.listing == (before + ["music/Uploads/taken.flac"]).sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.outside) == ["keep.txt"])
    }

    @Test func aRealFLACAndARealOpusAreTaken() throws {
        let scratch = try Scratch()
        let before = scratch.listing
        let folder = scratch.folder()
        let small = try Self.flac(seconds: 0.5)
        let large = try Self.flac(seconds: 3, rate: 44_100, channels: 2)
        #expect(small.count < UploadSignature.sniffBytes && large.count > 2 * UploadSignature.sniffBytes, "\(small.count) \(large.count)")
        let opus = try Self.opus()
        #expect(Self.upload(folder, "Album/01 Small.flac", small) == .success("Uploads/Album/01 Small.flac"))
        #expect(Self.upload(folder, "Album/02 Large.flac", large, chunk: 5000) == .success("Uploads/Album/02 Large.flac"))
        #expect(Self.upload(folder, "Other/Voice.opus", opus) == .success("Uploads/Other/Voice.opus"))
        #expect(Self.upload(folder, "Other/Voice.ogg", opus) == .success("Uploads/Other/Voice.ogg"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(scratch.uploads)/Album/02 Large.flac")) == Data(large))
        #expect(try AudioFile.describe("\(scratch.uploads)/Album/01 Small.flac").metadata.title == "Tone")
        #expect(try AudioFile.describe("\(scratch.uploads)/Other/Voice.opus").info.sampleRate == 48_000)
        let mode = try FileManager.default.attributesOfItem(atPath: "\(scratch.uploads)/Album/01 Small.flac")[.posixPermissions] as? Int
        #expect(mode == 0o644)
        let added = Set(scratch.listing).subtracting(before)
        #expect(added == ["music/Uploads", "music/Uploads/Album", "music/Uploads/Album/01 Small.flac", "music/Uploads/Album/02 Large.flac",
                          "music/Uploads/Other", "music/Uploads/Other/Voice.opus", "music/Uploads/Other/Voice.ogg"])
        // The library finds them as it finds any music.
        let scan = LibraryScanner.scan(musicDirectory: scratch.music, playlistsDirectory: nil)
        #expect(scan.tracks.count == 4, "\(scan.skipped)")
        #expect(folder.uploadsInProgress == 0)
    }

    @Test func aFileOfAnotherFormatOrThatCannotPlayIsRefusedAndRemoved() throws {
        let scratch = try Scratch()
        let folder = scratch.folder()
        #expect(Self.refusal(Self.upload(folder, "Voice.flac", try Self.opus())) == UploadRefusal(status: 415, reason: "this is not a FLAC file"))
        // The right first bytes, then nothing a decoder can read.
        let broken = Array("fLaC".utf8) + [UInt8](repeating: 0x42, count: 5000)
        let refusal = Self.refusal(Self.upload(folder, "Album/Broken.flac", broken))
        #expect(refusal?.status == 415)
        #expect(refusal?.reason.hasPrefix("the box cannot play this file: ") == true, "\(String(describing: refusal))")
        let empty = Self.refusal(Self.upload(folder, "Empty.flac", []))
        #expect(empty == UploadRefusal(status: 415, reason: "this is not a FLAC file"))
        // Nothing is left: no part file, no folder made for the refused file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.uploads).isEmpty)
    }

    @Test func aStreamOfZerosIsRefusedAfter64KiB() throws {
        let scratch = try Scratch()
        let folder = scratch.folder(UploadLimits(maxBytes: 4 << 30, maxAtOnce: 2, reserveBytes: 0))
        let music = open(scratch.music, O_RDONLY | O_DIRECTORY)
        defer { close(music) }
        let declared = min(Int64(2) << 30, try UploadDiskRoom.freeBytes(onFileSystemOf: music) / 2)
        let upload = try folder.begin(relativePath: "Album/Zeros.flac", declaredBytes: declared)
        let zeros = [UInt8](repeating: 0, count: 16 << 10)
        var refusal: UploadRefusal?
        for _ in 0..<1000 {
            refusal = Self.refusal { () throws(UploadRefusal) in try Self.write(upload, zeros) }
            if refusal != nil { break }
        }
        #expect(refusal == UploadRefusal(status: 415, reason: "this is not a FLAC file"))
        #expect(upload.receivedBytes == Int64(UploadSignature.sniffBytes))
        // Further bytes get the same answer; nothing is in the folder, not even the album's.
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try upload.finish() } == refusal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.uploads).isEmpty)
        #expect(folder.uploadsInProgress == 0)
    }

    @Test func anExistingFileIsNeverReplaced() throws {
        let scratch = try Scratch()
        let folder = scratch.folder()
        try FileManager.default.createDirectory(atPath: "\(scratch.uploads)/Album", withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: "\(scratch.uploads)/Album/Song.flac"))
        let tone = try Self.flac(seconds: 1)
        #expect(Self.refusal(Self.upload(folder, "Album/Song.flac", tone))
                == UploadRefusal(status: 409, reason: "Uploads/Album/Song.flac is already in the library"))
        // A file that appears while the upload is under way wins too.
        let upload = try folder.begin(relativePath: "Album/Later.flac", declaredBytes: Int64(tone.count))
        try Self.write(upload, tone)
        try Data("also precious".utf8).write(to: URL(fileURLWithPath: "\(scratch.uploads)/Album/Later.flac"))
        #expect(Self.refusal { () throws(UploadRefusal) in _ = try upload.finish() }
                == UploadRefusal(status: 409, reason: "Uploads/Album/Later.flac is already in the library"))
        #expect(try String(contentsOfFile: "\(scratch.uploads)/Album/Song.flac", encoding: .utf8) == "precious")
        #expect(try String(contentsOfFile: "\(scratch.uploads)/Album/Later.flac", encoding: .utf8) == "also precious")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(scratch.uploads)/Album").sorted() == ["Later.flac", "Song.flac"])
    }

    @Test func placingAFileNeverReplacesAnother() throws {
        // renameat2's RENAME_NOREPLACE, and the hard link it falls back to: EEXIST, both files kept.
        let scratch = try Scratch()
        try Data("part".utf8).write(to: URL(fileURLWithPath: "\(scratch.music)/.upload-1.part"))
        try Data("kept".utf8).write(to: URL(fileURLWithPath: "\(scratch.music)/x.flac"))
        let folder = open(scratch.music, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(linkat(folder, ".upload-1.part", folder, "x.flac", 0) == -1 && errno == EEXIST)
        #expect(throws: Errno(EEXIST)) { try UploadPartFile.place(".upload-1.part", as: "x.flac", in: folder) }
        try UploadPartFile.place(".upload-1.part", as: "y.flac", in: folder)
        #expect(try String(contentsOfFile: "\(scratch.music)/x.flac", encoding: .utf8) == "kept")
        #expect(try String(contentsOfFile: "\(scratch.music)/y.flac", encoding: .utf8) == "part")
        #expect(!FileManager.default.fileExists(atPath: "\(scratch.music)/.upload-1.part"))
    }

    @Test func leftoversOfACrashAreSweptButUploadsUnderWayStay() throws {
        let scratch = try Scratch()
        let folder = scratch.folder()
        let tone = try Self.flac(seconds: 1)
        let underWay = try folder.begin(relativePath: "Album/Now.flac", declaredBytes: Int64(tone.count))
        for path in ["Uploads/.upload-0123456789abcdef.part", "Uploads/Album/.upload-feed.part", "Uploads/A/B/.upload-x.part"] {
            try FileManager.default.createDirectory(atPath: "\(scratch.music)/\((path as NSString).deletingLastPathComponent)", withIntermediateDirectories: true)
            try Data("left".utf8).write(to: URL(fileURLWithPath: "\(scratch.music)/\(path)"))
        }
        // Not ours to touch: other hidden files, and part files behind a link.
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(scratch.uploads)/.notes.part"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(scratch.outside)/.upload-out.part"))
        try FileManager.default.createSymbolicLink(atPath: "\(scratch.uploads)/Out", withDestinationPath: scratch.outside)
        #expect(folder.sweepLeftovers() == 3)
        #expect(FileManager.default.fileExists(atPath: "\(scratch.uploads)/.notes.part"))
        #expect(FileManager.default.fileExists(atPath: "\(scratch.outside)/.upload-out.part"))
        #expect(!scratch.listing.contains { $0.hasPrefix("music/") && $0.contains(".upload-") && !$0.hasPrefix("music/Uploads/Album/.upload-") })
        try Self.write(underWay, tone)
        #expect(try underWay.finish() == "Uploads/Album/Now.flac")
        #expect(folder.sweepLeftovers() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(scratch.uploads)/Album") == ["Now.flac"])
    }

    @Test func aBadUploadFolderSettingRefusesEveryUpload() throws {
        let scratch = try Scratch()
        for setting in ["../outside", "/tmp", ".hidden"] {
            let refusal = Self.refusal(Self.upload(scratch.folder(folder: setting), "x.flac", try Self.flac(seconds: 0.2)))
            #expect(refusal?.status == 500, "\(setting): \(String(describing: refusal))")
        }
        // "" is the music folder itself.
        #expect(Self.upload(scratch.folder(folder: ""), "x.flac", try Self.flac(seconds: 0.2)) == .success("x.flac"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.outside) == ["keep.txt"])
    }

    @Test func nothingIsEverWrittenOutsideTheUploadFolder() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.uploads, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(scratch.uploads)/Evil", withDestinationPath: scratch.outside)
        let before = scratch.listing
        let folder = scratch.folder()
        let tone = try Self.flac(seconds: 1)
        for name in ["../x.flac", "Evil/x.flac", "Evil/../x.flac", "/\(scratch.outside)/x.flac", "ok/../../x.flac",
                     "Album/Good.flac", "Album/Zeros.flac"] {
            _ = Self.upload(folder, name, name.hasSuffix("Zeros.flac") ? [UInt8](repeating: 0, count: 100 << 10) : tone)
        }
        let added = Set(scratch.listing).subtracting(before)
        #expect(added == ["music/Uploads/Album", "music/Uploads/Album/Good.flac"])
        #expect(Set(before).isSubset(of: Set(scratch.listing)))
    }

    /// A disk that fills while the upload is written: 507, and the space comes back.
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func aDiskThatFillsMeanwhileRefusesAndLeavesNothing() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.uploads, withIntermediateDirectories: true)
        try Tools.run("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", scratch.uploads])
        defer { _ = try? Tools.run("umount", ["-l", scratch.uploads], check: false) }
        let folder = scratch.folder()
        let upload = try folder.begin(relativePath: "Big.flac", declaredBytes: 512 << 10)
        // Someone else takes the space meanwhile.
        var st = statvfs()
        _ = statvfs(scratch.uploads, &st)
        let free = Int(st.f_bavail) * Int(st.f_frsize)
        try Data(count: free - (128 << 10)).write(to: URL(fileURLWithPath: "\(scratch.uploads)/filler"))
        let body = Array("fLaC".utf8) + [UInt8](repeating: 0x11, count: (512 << 10) - 4)
        var refusal: UploadRefusal?
        for at in stride(from: 0, to: body.count, by: 32 << 10) where refusal == nil {
            refusal = Self.refusal { () throws(UploadRefusal) in
                try Self.write(upload, body[at..<at + (32 << 10)])
            }
        }
        #expect(refusal == UploadRefusal(status: 507, reason: "the disk is full"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.uploads) == ["filler"])
        #expect(folder.uploadsInProgress == 0)
    }
}
