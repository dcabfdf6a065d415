#if canImport(Glibc)
import Glibc
#endif

/// The folders systemd creates for a unit and names in the environment
/// (`StateDirectory=` gives `$STATE_DIRECTORY`, and so on): the config's defaults follow them.
public enum SystemdFolders {
    public static let variables = ["STATE_DIRECTORY", "RUNTIME_DIRECTORY", "CACHE_DIRECTORY"]

    public static func environment() -> [String: String] {
        var found: [String: String] = [:]
        for name in variables {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }
}
