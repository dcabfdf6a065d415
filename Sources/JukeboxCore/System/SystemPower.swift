import Dispatch
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Switches the machine off, as a card may (`[cards] allow_shutdown`). systemd's
/// `systemctl poweroff` stops every service first, this box included (SIGTERM: the place
/// is saved), then powers off. It needs the right to: root, or a polkit rule for the
/// box's user (see README).
enum SystemPower {
    static let commands = [["/usr/bin/systemctl", "poweroff"], ["/bin/systemctl", "poweroff"], ["/sbin/poweroff"]]

    static func powerOff(logger: Logger) {
        for command in commands where access(command[0], X_OK) == 0 {
            var pid: pid_t = 0
            let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
            defer { for arg in argv { free(arg) } }
            let status = posix_spawn(&pid, command[0], nil, nil, argv, environ)
            guard status == 0 else {
                logger.error("cards: cannot run \(command.joined(separator: " ")): \(Errno(status))")
                return
            }
            // Reaped off the caller's thread: systemd answers once the shutdown is under way.
            let child = pid
            DispatchQueue.global().async {
                var code: Int32 = 0
                while waitpid(child, &code, 0) < 0, errno == EINTR {}
                if code != 0 { logger.error("cards: \(command.joined(separator: " ")) failed (status \(code)); the box stays on") }
            }
            return
        }
        logger.error("cards: neither systemctl nor poweroff is here; the box stays on")
    }
}
