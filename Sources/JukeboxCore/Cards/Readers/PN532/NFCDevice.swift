import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// A PN532 opened through libnfc, used by one thread only (libnfc's calls block, and a
/// device is not shared between threads). Closed when released.
final class NFCDevice {
    private let device: OpaquePointer

    /// libnfc, loaded once for the process; the reason when it cannot be (not installed:
    /// a box without a PN532 needs no libnfc).
    private static let loading: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard jukebox_nfc_load(&message, message.count) == 0 else {
            return "libnfc cannot be loaded (\(text(of: message))); install libnfc6"
        }
        return nil
    }()

    /// Opens the device the connection string names (libnfc's form, e.g.
    /// `pn532_uart:/dev/ttyS1`), and makes it an initiator that polls once per select.
    init(connection: String) throws(NFCError) {
        if let problem = Self.loading { throw NFCError(problem) }
        guard let opened = jukebox_nfc_open(connection) else {
            // libnfc gives no reason; a missing port is the one worth naming.
            if let path = NFCDevice.port(of: connection), access(path, F_OK) != 0 {
                throw NFCError("\(path): \(Errno.current)")
            }
            throw NFCError("no PN532 answers on \(connection)")
        }
        device = opened
        guard jukebox_nfc_initiator_init(device) >= 0 else {
            let error = NFCError(String(cString: jukebox_nfc_strerror(device)))
            jukebox_nfc_close(device)
            throw error
        }
        // nfc_initiator_init asks the chip to retry a select for ever: one try per poll
        // instead, so an empty field comes back at once and a lifted card is known fast.
        guard jukebox_nfc_set_property_bool(device, NP_INFINITE_SELECT, false) >= 0 else {
            let error = NFCError(String(cString: jukebox_nfc_strerror(device)))
            jukebox_nfc_close(device)
            throw error
        }
    }

    deinit { jukebox_nfc_close(device) }

    /// One ISO14443A (106 kbps) poll: the UID of the card in the field, nil for an empty
    /// field.
    func poll() throws(NFCError) -> [UInt8]? {
        var uid = [UInt8](repeating: 0, count: 10)
        var length = uid.count
        let found = jukebox_nfc_select_iso14443a(device, &uid, &length)
        if found < 0 { throw NFCError(String(cString: jukebox_nfc_strerror(device)), code: found) }
        guard found > 0 else { return nil }
        // The card is left selected (ACTIVE), and a selected card answers no REQA: the
        // next poll would miss it every other time (seen with PN532 readers that poll
        // this way, e.g. ESPHome's and Adafruit's). Dropping the field resets it, and the
        // next InListPassiveTarget raises the field again. Not InDeselect: that halts
        // the card, which then answers no REQA either.
        _ = jukebox_nfc_set_property_bool(device, NP_ACTIVATE_FIELD, false)
        return Array(uid.prefix(length))
    }

    /// The device path of a serial, I2C or SPI connection string (`pn532_uart:/dev/ttyS1`,
    /// `pn532_i2c:/dev/i2c-1`, `pn532_uart:/dev/ttyUSB0:115200`), nil for other kinds.
    static func port(of connection: String) -> String? {
        let parts = connection.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("pn532_"), parts[1].hasPrefix("/") else { return nil }
        return String(parts[1])
    }
}

/// What went wrong with a PN532, in libnfc's words where it has some.
struct NFCError: Error, CustomStringConvertible {
    let description: String
    /// libnfc's error code (NFC_EIO, NFC_ETIMEOUT...), 0 when the reason is not libnfc's.
    let code: Int32

    init(_ description: String, code: Int32 = 0) {
        self.description = description
        self.code = code
    }

    /// A radio error (a card half in the field, a collision): the chip itself works.
    var isRadio: Bool { code == NFC_ERFTRANS || code == NFC_ETGRELEASED }
}

/// A NUL-terminated C buffer's text.
private func text(of buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
