import CJukeboxShim
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A USB card reader that acts as a keyboard: it types the card's number and Enter. Its
/// evdev device (by name or path, as `[[input.key]]` finds devices) is grabbed, so the
/// digits reach nothing else: not the console, not the keys (which also skip it). Two
/// readers of one model share a name: each takes a device the other has not grabbed.
final class HIDCardReader: PolledReader {
    private let name: String
    private let spec: String
    private let logger: Logger
    private let report: @Sendable (ReaderReport) -> Void
    private var device: EvdevDevice?
    private var typed = TypedCardNumber()
    /// "Not there" was said; said again only after it was found.
    private var missingSaid = false

    init(name: String, device: String, logger: Logger, report: @escaping @Sendable (ReaderReport) -> Void) {
        self.name = name
        spec = device
        self.logger = logger
        self.report = report
    }

    var descriptor: Int32? { device?.fd }
    var deadline: UInt64? { typed.deadline }

    func open() {
        guard device == nil else { return }
        for path in EvdevDevice.nodes() {
            guard let candidate = try? EvdevDevice(path: path), EvdevInputs.matches(spec, candidate),
                  candidate.has(type: Int(EV_KEY), code: Int(KEY_ENTER)) || candidate.has(type: Int(EV_KEY), code: Int(KEY_KPENTER))
            else { continue }
            // EBUSY: another reader of the same name holds it.
            guard jukebox_evdev_grab(candidate.fd, 1) == 0 else { continue }
            device = candidate
            typed = TypedCardNumber()
            missingSaid = false
            logger.info("card reader \"\(name)\": \"\(candidate.name)\" (\(path)), grabbed")
            return
        }
        if !missingSaid {
            missingSaid = true
            logger.warning("card reader \"\(name)\": no input device \"\(spec)\" yet; it is used when it appears")
        }
    }

    func readable(now: UInt64) {
        guard let device else { return }
        let events: [EvdevDevice.Event]
        do {
            events = try device.events()
        } catch {
            logger.warning("card reader \"\(name)\": \"\(device.name)\" (\(device.path)) went away; it is used again when it is back")
            close()
            missingSaid = true
            return
        }
        for event in events {
            if event.type == Int(EV_SYN), event.code == Int(SYN_DROPPED) {
                logger.notice("card reader \"\(name)\": the kernel dropped its keys; the number being typed is lost")
                typed.reset()
            } else if event.type == Int(EV_KEY), event.value == 1 {
                handle(typed.press(event.code, at: event.at), at: event.at)
            }
        }
    }

    func advance(to now: UInt64) { handle(typed.advance(to: now), at: now) }

    func close() {
        device = nil  // closing the descriptor ends the grab
        typed = TypedCardNumber()
    }

    private func handle(_ outcomes: [TypedCardNumber.Outcome], at: UInt64) {
        for outcome in outcomes {
            switch outcome {
            case .read(let id): report(ReaderReport(reader: name, sighting: .read(id), at: at))
            case .dropped(let why): logger.warning("card reader \"\(name)\": \(why); what it typed is dropped")
            }
        }
    }
}
