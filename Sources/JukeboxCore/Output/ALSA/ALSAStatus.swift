import CAlsa

/// alsa-lib returns negative errno values. This is the one place they become errors, so
/// no caller compares codes with a guessed sign.
enum ALSAStatus {
    static func check(_ code: Int32, _ device: String, _ what: String) throws {
        guard code < 0 else { return }
        throw error(code, device, what)
    }

    static func error(_ code: Int32, _ device: String, _ what: String) -> OutputError {
        let errno = Errno(negated: code)
        let text = "\(what): \(String(cString: snd_strerror(code)))"
        switch errno.rawValue {
        case ENODEV, ENOENT, ENXIO, EBUSY: return .unavailable(device, text)
        case EINVAL: return .unsupported(device, text)
        default: return .failed(device, text)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
