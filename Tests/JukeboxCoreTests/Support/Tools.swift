import Foundation

/// Runs the command-line tools the tests compare against (sox, flac, lame, mpg123) and the
/// jukebox binary itself. The test setup script installs them; a missing tool fails loudly.
enum Tools {
    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String], stdin: Data? = nil, check: Bool = true) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(of: tool))
        // sox seeds its noise (`synth pluck`, dither) anew on each run unless told to repeat,
        // so every run would test other fixtures and a failure could not be reproduced.
        process.arguments = tool == "sox" ? ["-R"] + arguments : arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        // Feed stdin and drain stderr on their own threads: the child may fill one pipe
        // while we are busy with another.
        if let stdin {
            let writer = input.fileHandleForWriting
            Thread {
                writer.write(stdin)
                try? writer.close()
            }.start()
        }
        nonisolated(unsafe) var errData = Data()
        let errReader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        errReader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errReader.isFinished { usleep(1000) }
        let result = Output(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
        if check && result.status != 0 {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result
    }

    struct ToolFailure: Error, CustomStringConvertible { let description: String }

    /// Runs `tool` with its output discarded and returns its exit status and its own peak
    /// RSS in bytes, as GNU time reports it. Not from our own `wait4`: a process started
    /// by this one carries this process's high-water mark through its exec (the kernel
    /// keeps the larger of the old and the new), so a test runner grown to 230 MB made a
    /// small decode look that big. `time` is small, and the tool is its child.
    static func peakMemory(_ tool: String, _ arguments: [String]) throws -> (status: Int32, peakBytes: Int) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("jukebox-peak-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let run = try Tools.run("time", ["-f", "%M", "-o", report, try path(of: tool)] + arguments, check: false)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        // The last line: before it, time notes a non-zero exit ("Command exited with ...").
        guard let kib = text.split(separator: "\n").last.flatMap({ Int($0) }) else {
            throw ToolFailure(description: "time gave no peak for \(tool): \(text)")
        }
        return (run.status, kib * 1024)
    }

    static func path(of tool: String) throws -> String {
        if tool.hasPrefix("/") { return tool }
        for dir in ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(tool)") {
            return "\(dir)/\(tool)"
        }
        throw ToolFailure(description: "\(tool) is not installed; run scripts/test, which installs the test tools")
    }

    /// The jukebox executable SwiftPM built beside this test bundle.
    static var jukebox: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("jukebox").path
    }
}
