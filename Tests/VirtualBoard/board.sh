# Helpers for scenarios (sourced by /init in the guest; busybox sh).
# A scenario ends by calling `pass` (or `pass "what was measured"`, shown in the summary)
# or `fail "reason"`. Its output goes to /out/NAME.log.
# The first failure stands: a helper that fails on the way (gpio) is not undone by a
# `pass` at the end.

FIX=/board/fixtures
CTL=/tmp/jukebox.sock

pass() { grep -qs '^fail' /tmp/result || echo "pass${1:+ $1}" > /tmp/result; }
fail() { grep -qs '^fail' /tmp/result || echo "fail $*" > /tmp/result; echo "FAIL: $*"; }

# start_jukebox MUSIC_DIR [extra jukebox run options]: plays to the loopback card.
# $PLAYBACK adds lines to [playback]; $AUDIO replaces the device line of [audio] (device
# or devices, and more keys); $INPUT is appended (an [input] section and its entries).
# No state is kept unless $STATE gives the lines of a [state] section (file = "..."), and
# nothing is drawn unless a scenario passes --display (it would cost every scenario CPU).
start_jukebox() {
    dir=$1; shift
    # Defaults for the board unless $PLAYBACK sets them (TOML allows a key once).
    volume="start_volume = 100" mode='mode = "once"'
    case "${PLAYBACK:-}" in *start_volume*) volume="" ;; esac
    case "${PLAYBACK:-}" in *mode*) mode="" ;; esac
    # Outside the here-document: busybox drops the quotes of a default inside one.
    audio=${AUDIO:-'device = "hw:Loopback,0,0"'}
    state=${STATE:-'file = ""'}
    cat > /tmp/jukebox.toml <<CONF
[playback]
$mode
$volume
${PLAYBACK:-}
[audio]
$audio
allow_conversion = false
[control]
keyboard = false
[state]
$state
[display]
device = "none"
${INPUT:-}
CONF
    jukebox run --config /tmp/jukebox.toml --music-dir "$dir" --socket $CTL --verbose "$@" > /tmp/jukebox.log 2>&1 &
    JUKEBOX_PID=$!
    i=0
    while [ $i -lt 100 ] && ! jukebox ctl --socket $CTL ping > /dev/null 2>&1; do usleep 50000; i=$((i + 1)); done
}

ctl() { jukebox ctl --socket $CTL "$@"; }

# status NAME: one field of the player's status (state, volume, song, elapsed...).
status() { ctl status | sed -n "s/^$1: //p"; }

# gpio STEPS...: drive simulated lines (N=0 pulled down, i.e. a button to ground pressed;
# N=1 pulled up, released; +Dms/+Dus waits) with sub-millisecond timing.
# A step the tool could not take fails the scenario, rather than showing up later as a
# missing press or click.
gpio() { jukebox-board gpio "$@" || fail "jukebox-board gpio failed (exit $?): the lines were not driven as asked"; }

# lines_up N...: buttons idle (pulled up) before the jukebox starts; simulated lines start
# pulled down, which reads as pressed.
lines_up() { s=""; for n in "$@"; do s="$s $n=1"; done; gpio $s; }

# actions: the input actions the jukebox logged, one line each.
actions() { grep 'input: .* → ' /tmp/jukebox.log; }

# wait_for TEXT [SECONDS]: until the jukebox log has TEXT (default 10 s).
wait_for() {
    t=0
    while ! grep -q "$1" /tmp/jukebox.log && [ $t -lt $((${2:-10} * 10)) ]; do usleep 100000; t=$((t + 1)); done
    grep -q "$1" /tmp/jukebox.log
}

# record SECONDS FILE: captures what the loopback card plays (at $RATE, 44100 unless set),
# in the background, for at most SECONDS; returns once capturing has started (a fixed wait
# was too short for a busy guest). wait_record ends it once the music a scenario waits for is over, so the limit is
# only a guard and a slow start cannot push the music's end out of the recording.
record() {
    rm -f /tmp/record.ready /tmp/record.stop
    jukebox-board record --device hw:Loopback,1,0 --rate "${RATE:-44100}" --seconds "$1" --out "$2" --ready /tmp/record.ready \
        --stop-file /tmp/record.stop &
    RECORD_PID=$!
    t=0; while [ ! -f /tmp/record.ready ] && [ $t -lt 200 ]; do usleep 20000; t=$((t + 1)); done
}

wait_record() { touch /tmp/record.stop; wait $RECORD_PID; RECORD_PID=""; }

# wait_jukebox [SECONDS]: wait for the jukebox to exit by itself (--exit-when-done);
# false if it is still running after SECONDS (default 40).
wait_jukebox() {
    t=0
    while running && [ $t -lt $((${1:-40} * 10)) ]; do usleep 100000; t=$((t + 1)); done
    ! running
}

# decode FILE: the project's own decoder output, made in the guest. libmpg123 chooses its
# synthesis code by CPU, so MP3 references are decoded on the CPU that plays them; on the
# host the tests hold `jukebox decode` equal to `mpg123 -s`.
decode() { jukebox decode "$1" -o -; }

running() { kill -0 "$JUKEBOX_PID" 2>/dev/null; }

# segments RECORDING REFERENCE; the recording is kept in /out for a look after a failure.
# Worked out once per recording (scenarios ask up to three times; under emulation each
# answer costs seconds), and again only if the recording is newer than the answer.
segments() {
    answer="/tmp/segments.$(basename "$1").$(basename "$2")"
    if [ ! -f "$answer" ] || [ "$1" -nt "$answer" ]; then
        cp "$1" /out/ 2>/dev/null
        jukebox-board segments --recording "$1" --reference "$2" > "$answer.new" && mv "$answer.new" "$answer"
    fi
    cat "$answer"
}

# music_segments RECORDING REFERENCE: the stretches found in the reference. The loopback
# card, when a playback stream stops late (a timer tick delayed in the guest), sends a few
# hundred frames of stale data from its ring buffer: usually not in the reference (ref=-1),
# but sometimes music from one buffer earlier, which the reference does hold. Both are left
# out here: a stretch that is unmatched, or that repeats music already heard, and is shorter
# than two periods (882 frames, 20 ms). `stale_ok` checks that every unmatched stretch is
# that short, so nothing else hides there.
music_segments() {
    segments "$1" "$2" | grep -v 'ref=-1' | awk '{
        ref = $3; frames = $4; sub(/ref=/, "", ref); sub(/frames=/, "", frames)
        if (frames + 0 < 882 && ref + frames <= heard) next
        if (ref + frames > heard) heard = ref + frames
        print }'
}
stale_ok() {
    segments "$1" "$2" | grep 'ref=-1' | while read -r line; do
        [ "$(field frames "$line")" -lt 882 ] || { echo "long unmatched stretch: $line"; return 1; }
    done
}

# field NAME LINE: the value of NAME=... in a segments line.
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# The USB DAC (QEMU's usb-audio on an xHCI controller): card "Audio", S16_LE stereo at
# 48 kHz only, a hardware volume control. What the guest plays to it, QEMU writes on the
# host into /out/usbdac.wav (a 44-byte header, then the PCM as the device consumed it).
USB_DAC="hw:CARD=Audio,DEV=0"
usb_present() { grep -q "USB-Audio" /proc/asound/cards; }

# host WORD [SECONDS]: asks the host to do WORD (unplug, plug) and waits for its answer
# (10 s unless SECONDS). The answer is "ok", or "ok" and words kept in $HOST_ANSWER.
HOST_REQUESTS=0
host() {
    HOST_REQUESTS=$((HOST_REQUESTS + 1))
    name=/out/host/$$-$HOST_REQUESTS
    mkdir -p /out/host
    echo "$1" > "$name.tmp" && mv "$name.tmp" "$name.req"
    t=0; while [ ! -f "$name.done" ] && [ $t -lt $((${2:-10} * 20)) ]; do usleep 50000; t=$((t + 1)); done
    HOST_ANSWER="the host did not answer '$1' within ${2:-10} s"
    [ -f "$name.done" ] || { echo "$HOST_ANSWER"; return 1; }
    HOST_ANSWER=$(cat "$name.done"); rm -f "$name.done"
    case $HOST_ANSWER in ok|ok\ *) ;; *) echo "host: $1: $HOST_ANSWER"; return 1 ;; esac
}

# usb_unplug: the DAC is pulled out (the host's device_del); returns once QEMU has done it.
usb_unplug() { host unplug; }
# usb_plug: plugged back in; returns once the card is back (10 s at most).
usb_plug() {
    host plug || return 1
    t=0; while ! usb_present && [ $t -lt 100 ]; do usleep 100000; t=$((t + 1)); done
    usb_present
}

# Everything the DAC received, across unplugs (QEMU starts its file afresh on each
# replug; the host keeps the earlier part in /out/usbdac.archive).
usb_stream() { [ -f /out/usbdac.archive ] && cat /out/usbdac.archive; tail -c +45 /out/usbdac.wav; }
# usb_mark: how many bytes of PCM the DAC has received so far.
usb_mark() {
    archived=0; [ -f /out/usbdac.archive ] && archived=$(wc -c < /out/usbdac.archive)
    written=$(wc -c < /out/usbdac.wav 2>/dev/null || echo 0)
    [ "$written" -ge 44 ] || written=44  # QEMU has not written its header yet
    echo $((archived + written - 44))
}
# usb_take MARK FILE: the PCM the DAC received since MARK, into FILE.
usb_take() { usb_stream | tail -c +$(($1 + 1)) > "$2"; }
# usb_segments RECORDING REFERENCE: the stretches of the reference in what the DAC
# received. QEMU's device can hold the last packets of the scenario before and write them
# after the mark, ahead of this playback: a first stretch shorter than two periods (960
# frames) is that, and is left out.
usb_segments() {
    jukebox-board segments --recording "$1" --reference "$2" --rate 48000 | grep -v 'ref=-1' |
        awk 'NR == 1 { split($4, f, "="); if (f[2] + 0 < 960) next } { print }'
}

board_cleanup() {
    [ -n "${JUKEBOX_PID:-}" ] && kill "$JUKEBOX_PID" 2>/dev/null && wait "$JUKEBOX_PID" 2>/dev/null
    [ -n "${RECORD_PID:-}" ] && kill "$RECORD_PID" 2>/dev/null
    # A scenario that failed with the DAC unplugged must not leave the next without it.
    [ "${HOST_REQUESTS:-0}" -gt 0 ] && ! usb_present && usb_plug > /dev/null
    echo "---- jukebox log"; cat /tmp/jukebox.log 2>/dev/null
    rm -f /tmp/segments.*
    JUKEBOX_PID="" RECORD_PID=""
}
