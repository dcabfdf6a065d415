import CAlsa

/// alsa-lib returns negative errno values. This is the one place they become errors, so
/// no caller compares codes with a guessed sign.
enum ALSAStatus {
    static func check(_ code: Int32, _ device: String, _ what: String) throws(OutputError) {
        guard code < 0 else { return }
        throw error(code, device, what)
    }

    /// A device that was open and went away reports ENODEV, or EBADFD once the USB core
    /// has torn the stream down; one that is not there at open, ENOENT or ENODEV.
    static func error(_ code: Int32, _ device: String, _ what: String) -> OutputError {
        switch Errno(negated: code).rawValue {
        case ENODEV, EBADFD, ESHUTDOWN: .disconnected(device: device)
        case ENOENT, ENXIO: .absent(device: device)
        case EBUSY: .busy(device: device)
        default: .failed(device: device, what: what, code: Errno(negated: code))
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
