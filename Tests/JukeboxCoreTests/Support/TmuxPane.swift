import Foundation

/// A terminal a full-screen client runs in, driven by keys and read as text: a detached
/// tmux pane of a fixed size, on a tmux server of its own.
struct TmuxPane {
    let socket: String

    /// Starts `command` in a detached `columns`x`rows` pane. The tmux server forks away
    /// from its client and keeps every descriptor it inherits, among them the one by
    /// which Foundation's `Process` sees its child end: so it starts from a shell that
    /// first closes everything but the standard three, which go to /dev/null. It also
    /// inherits the signals the test process holds blocked, and with SIGHUP and SIGTERM
    /// held neither the client nor tmux ends on `kill-server`: so the shell execs it
    /// through Python with none blocked.
    init(socket: String, columns: Int = 100, rows: Int = 30, command: String) throws {
        self.socket = socket
        let unblocked = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp(sys.argv[1], sys.argv[1:])"
        let script = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; "#
            + #"exec /usr/bin/python3 -c "$4" tmux -S "$0" new-session -d -x "$1" -y "$2" "$3" </dev/null >/dev/null 2>&1"#
        try Tools.run("bash", ["-c", script, socket, String(columns), String(rows), command, unblocked])
    }

    func keys(_ keys: String...) throws { try Tools.run("tmux", ["-S", socket, "send-keys"] + keys) }

    /// Text typed as it is, not read as key names.
    func type(_ text: String) throws { try Tools.run("tmux", ["-S", socket, "send-keys", "-l", text]) }

    var screen: String { (try? Tools.run("tmux", ["-S", socket, "capture-pane", "-p"], check: false).text) ?? "" }

    /// The screen with its attributes (bold, reverse), as escape sequences, so a line
    /// drawn bold for the song playing or an output enabled differs from a plain one.
    var screenWithAttributes: String {
        (try? Tools.run("tmux", ["-S", socket, "capture-pane", "-p", "-e"], check: false).text) ?? ""
    }

    /// Whether the pane still runs its program (the server ends with its last pane).
    var isRunning: Bool { ((try? Tools.run("tmux", ["-S", socket, "has-session"], check: false).status) ?? 1) == 0 }

    func close() { _ = try? Tools.run("tmux", ["-S", socket, "kill-server"], check: false) }
}
