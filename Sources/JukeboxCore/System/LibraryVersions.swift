import CAlsa
@preconcurrency import CFlac  // FLAC__VERSION_STRING is a C global; we only read it
import CGpiod
import CMpg123
import COpus
import CVorbis

/// The C libraries this binary runs against, for `jukebox version` and bug reports.
public enum LibraryVersions {
    public static var all: [(name: String, version: String)] {
        [
            ("alsa-lib", String(cString: snd_asoundlib_version())),
            ("libgpiod", String(cString: gpiod_version_string())),
            ("libFLAC", String(cString: FLAC__VERSION_STRING)),
            ("libmpg123", mpg123Version),
            ("libvorbis", lastWord(vorbis_version_string())),
            ("libopus", lastWord(opus_get_version_string())),
        ]
    }

    /// libmpg123 1.31 (Debian 12) has no run-time version call; its API number identifies it.
    private static var mpg123Version: String { "API \(MPG123_API_VERSION)" }

    /// "Xiph.Org libVorbis 1.3.7" and "libopus 1.3.1" end in the version.
    private static func lastWord(_ text: UnsafePointer<CChar>) -> String {
        String(cString: text).split(separator: " ").last.map(String.init) ?? ""
    }
}
