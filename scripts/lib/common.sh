# Shared by the scripts in this folder: where things are, and installing what they need.
# Every Debian package the project needs is named here and nowhere else.

JUKEBOX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# Headers and pkg-config files for the C libraries the binary links.
BUILD_PACKAGES="pkg-config libasound2-dev libgpiod-dev libflac-dev libmpg123-dev libvorbis-dev libopusfile-dev libsystemd-dev libfreetype-dev libpng-dev libjpeg62-turbo-dev libdrm-dev libcurl4-openssl-dev libsoundtouch-dev libavformat-dev libavcodec-dev libavutil-dev libsqlite3-dev libsoxr-dev libnfc-dev libavahi-client-dev"
# The fonts the screen draws with: Latin, Greek and Cyrillic, then Chinese, Japanese and Korean.
FONT_PACKAGES="fonts-dejavu-core fonts-wqy-microhei"
# The reference tools the tests compare against and make fixtures with (ffmpeg for the
# MP4 ones: AAC and ALAC, chapters), the MPD clients the control socket is tested with
# (mpc, python-mpd2 as Debian's python3-mpd, ncmpcpp and ncmpc in tmux panes, and
# libmpdclient-dev for a C walk over libmpdclient), GNU time for the peak memory of a
# tool run, and nginx: the web server that network playback is tested against (started
# on loopback by the tests), and iproute2 for the network namespace, its throttle and the
# board's netem; icecast2, the radio server the station tests start on loopback and feed
# with a source of their own; and MPD itself, which the protocol test and the real
# clients' tests hold the control socket's replies against; libnfc-bin's nfc-list, which
# the board's emulated PN532 (Tests/VirtualBoard/card-reader-host) is held against;
# snapserver, which runs `jukebox snapcast-plugin` as its controlscript in the tests, and
# the Python modules its own meta_mpd.py plugin imports (it is run against the box);
# snapclient, the rooms the Snapcast output is heard in (SnapcastRoomsTests);
# avahi-daemon on a private D-Bus, with avahi-browse, that the box's zeroconf
# announcements are found through (ZeroconfDaemonTests); and Chromium with its driver
# and Selenium for the page's tests in a browser (Tests/Browser/page-tests).
TEST_PACKAGES="sox flac lame mpg123 ffmpeg vorbis-tools opus-tools mpc time python3-mpd ncmpcpp ncmpc libmpdclient-dev tmux nginx-light iproute2 icecast2 mpd libnfc-bin snapserver snapclient python3-dbus python3-gi python3-musicbrainzngs avahi-daemon avahi-utils dbus chromium chromium-driver python3-selenium"
# Measuring tools and the peers the benchmarks run beside us.
BENCH_PACKAGES="time mpd mpc libjpeg-turbo-progs"

# Seconds since the outermost script started, so a CI log shows where the time goes.
: "${JUKEBOX_T0:=$(date +%s)}"
export JUKEBOX_T0
say() { printf '==> [%4ds] %s\n' "$(( $(date +%s) - JUKEBOX_T0 ))" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Installs the named Debian packages that are missing. As root it runs apt-get; otherwise
# it prints the exact command to run and stops.
need_packages() {
    local missing=()
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        printf 'These Debian packages are needed. Install them with:\n\n  sudo apt-get install -y %s\n\nthen run this again.\n' "${missing[*]}" >&2
        exit 1
    fi
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The Swift toolchain is not a Debian package; find it or say where to get it.
need_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin "$HOME/.local/share/swiftly/bin"; do
            [ -x "$dir/swift" ] && export PATH="$PATH:$dir" && break
        done
    fi
    command -v swift >/dev/null 2>&1 || die "Swift 6 is needed: install it from https://www.swift.org/install/linux/ (Debian 12), then run this again."
}

# Fails on a compiler warning in the project's own code (Sources/, Tests/) in a build log;
# warnings from the packages we depend on and from the toolchain's static libraries are
# theirs to fix.
check_warnings() {
    local found
    found=$(grep -E "^$JUKEBOX_ROOT/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$1" | sort -u || true)
    [ -z "$found" ] || die "the build has warnings in the project's own code:
$found"
}

# The release binary: Swift's runtime linked in, so the board needs only glibc and the C
# libraries. Built once per run: the board scripts started by scripts/test reuse it.
build_release() {
    JUKEBOX_BIN="$JUKEBOX_ROOT/.build/release/jukebox"
    if [ "${JUKEBOX_RELEASE_BUILT:-}" = "$JUKEBOX_ROOT" ] && [ -x "$JUKEBOX_BIN" ]; then return 0; fi
    say "building the release binary (static Swift runtime)"
    local log
    log=$(mktemp)
    (cd "$JUKEBOX_ROOT" && swift build -c release --static-swift-stdlib --disable-local-rpath >"$log" 2>&1) || { grep -v '^\[' "$log" >&2; rm -f "$log"; die "release build failed"; }
    check_warnings "$log"
    rm -f "$log"
    [ -x "$JUKEBOX_BIN" ] || die "release build did not produce $JUKEBOX_BIN"
    # One use of a Foundation-only API (String(format:), StringProtocol.range(of:)) links
    # all of Foundation and ICU: a binary of 85 MB instead of 36, and a slower start.
    # grep reads all of nm's output: with -q it would stop early, nm would die of SIGPIPE,
    # and pipefail would make the whole test false, so the check could never fail.
    if nm "$JUKEBOX_BIN" | grep ' icudt[0-9]*_dat$' >/dev/null; then
        die "the release binary links Foundation and ICU: use FoundationEssentials or the standard library instead (docs/benchmarks.md, Binary size)"
    fi
    export JUKEBOX_RELEASE_BUILT=$JUKEBOX_ROOT
}
