#if canImport(Glibc)
import Glibc
#endif

/// One upload being written: its bytes go to a hidden part file as they arrive, are
/// checked as early as they can be, and the file takes its name only when it is whole and
/// the library can play it. Anything else leaves nothing behind: a refusal, `abandon`,
/// or the object going away.
///
/// One caller drives it (the web route, off the audio and control threads); `abandon`
/// may come from elsewhere meanwhile (a closed connection) and then takes effect when
/// the call under way returns. No lock is held across I/O.
public final class UploadInProgress: @unchecked Sendable {
    /// Where the file will be, from the music folder (what `update` is given).
    public let libraryPath: String

    private enum Phase: Equatable {
        case open
        case refused(UploadRefusal)
        case finished
        case abandoned
    }

    private struct Control {
        var phase = Phase.open
        /// A write or finish is under way.
        var busy = false
        var abandonAsked = false
    }

    private let control = ConditionLocked(Control())
    // Touched only by the one call that holds `busy`, or by the discard that follows.
    private var chain: UploadFolderChain
    private var fd: Int32
    private let partName: String
    private let name: UploadName
    private var size: UploadSize
    /// The first bytes, until they have been sniffed.
    private var head: [UInt8] = []
    private var sniffed = false
    private let slots: UploadSlots
    private let partPathForMessages: String

    init(chain: UploadFolderChain, fd: Int32, partName: String, name: UploadName, size: UploadSize,
         slots: UploadSlots, libraryPath: String, musicDirectory: String) {
        self.chain = chain
        self.fd = fd
        self.partName = partName
        self.name = name
        self.size = size
        self.slots = slots
        self.libraryPath = libraryPath
        self.partPathForMessages = "\(musicDirectory)/\(chain.shown(partName))"
    }

    deinit { abandon() }

    /// Bytes received so far.
    public var receivedBytes: Int64 { size.received }

    /// Appends `bytes` to the file. Refuses (and abandons the upload) when they pass the
    /// declared length, when the first 64 KiB are not the format the name says, or when
    /// the disk is full.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(UploadRefusal) {
        try claim()
        var failure: UploadRefusal?
        do { try append(bytes) } catch { failure = error }
        release(failure)
        if let failure { throw failure }
    }

    /// Flushes the file, runs the library's probe on it, gives it its name (never over an
    /// existing file) and flushes the folder. Returns the path from the music folder.
    public func finish() throws(UploadRefusal) -> String {
        try claim()
        var failure: UploadRefusal?
        do { try complete() } catch { failure = error }
        release(failure, finished: failure == nil)
        if let failure { throw failure }
        return libraryPath
    }

    /// Removes the part file and any folder this upload made, and frees its slot. Does
    /// nothing after `finish` or a refusal (which cleaned up already), or a second time.
    public func abandon() {
        let discardNow = control.withLock { state -> Bool in
            guard state.phase == .open else { return false }
            if state.busy {
                state.abandonAsked = true
                return false
            }
            state.phase = .abandoned
            return true
        }
        if discardNow { discard() }
    }

    // MARK: - The steps

    private func append(_ bytes: UnsafeRawBufferPointer) throws(UploadRefusal) {
        try size.arrive(bytes.count)
        if !sniffed {
            // The check comes before these bytes are written: a stream of zeros leaves
            // at most its first 64 KiB on the disk, and only until it is removed.
            head.append(contentsOf: bytes.prefix(UploadSignature.sniffBytes - head.count))
            if head.count >= UploadSignature.sniffBytes { try sniff() }
        }
        do {
            try writeAll(fd, bytes)
        } catch {
            throw .writeFailed("write \(partPathForMessages)", error)
        }
    }

    private func sniff() throws(UploadRefusal) {
        try name.signature.check(head: head)
        sniffed = true
        head = []
    }

    private func complete() throws(UploadRefusal) {
        try size.checkComplete()
        if !sniffed { try sniff() }
        do {
            try systemCall { fsync(fd) }
        } catch {
            throw .writeFailed("flush \(partPathForMessages)", error)
        }
        try UploadProbe.check(partName, in: chain.innermost, fallbackPath: partPathForMessages, signature: name.signature)
        do {
            try UploadPartFile.place(partName, as: name.fileName, in: chain.innermost)
        } catch .exists {
            throw .alreadyThere(libraryPath)
        } catch {
            throw .failed("name \(libraryPath)", error)
        }
        _ = close(fd)
        fd = -1
        // The file is in place; flushing the folders makes its name (and any folder made
        // for it) survive a power cut. A file system that cannot flush a folder is no
        // reason to refuse a file that is already there.
        chain.syncFolders()
        chain.close()
        slots.free(partName)
    }

    // MARK: - Who may act

    private func claim() throws(UploadRefusal) {
        try control.withLock { state throws(UploadRefusal) in
            switch state.phase {
            case .open: break
            case .refused(let refusal): throw refusal
            case .finished: throw UploadRefusal(status: 500, reason: "the upload of \(libraryPath) is already finished")
            case .abandoned: throw UploadRefusal.badRequest("the upload of \(libraryPath) was abandoned")
            }
            guard !state.busy else { throw UploadRefusal(status: 500, reason: "the upload of \(libraryPath) is written from two places at once") }
            state.busy = true
        }
    }

    /// Ends a call: a refusal or an abandon asked meanwhile discards the files.
    private func release(_ failure: UploadRefusal?, finished: Bool = false) {
        let discardNow = control.withLock { state -> Bool in
            state.busy = false
            if finished {
                state.phase = .finished
                return false
            }
            if let failure {
                state.phase = .refused(failure)
                return true
            }
            if state.abandonAsked {
                state.phase = .abandoned
                return true
            }
            return false
        }
        if discardNow { discard() }
    }

    private func discard() {
        if fd >= 0 {
            _ = close(fd)
            fd = -1
        }
        _ = unlinkat(chain.innermost, partName, 0)
        chain.removeMadeFolders()
        chain.close()
        slots.free(partName)
    }
}
