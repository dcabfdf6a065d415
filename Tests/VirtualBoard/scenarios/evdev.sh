# evdev input: a uinput device that appears after the jukebox started, sending media keys
# and a dial, has the same effects as buttons and an encoder.
PLAYBACK='start_volume = 50'
INPUT='[[input.key]]
device = "jukebox test keys"
code = "KEY_PLAYPAUSE"
press = "play-pause"
[[input.key]]
device = "jukebox test keys"
code = "KEY_NEXTSONG"
press = "next"
[[input.axis]]
device = "jukebox test keys"
code = "REL_DIAL"
action = "volume"'
mkdir -p /tmp/evdev-music
cp $FIX/scan/scan.flac /tmp/evdev-music/1.flac
cp $FIX/scan/scan.flac /tmp/evdev-music/2.flac
start_jukebox /tmp/evdev-music
wait_for 'no input device "jukebox test keys" yet' || { fail "the missing device was not reported: $(tail -n 5 /tmp/jukebox.log)"; return; }
jukebox-board uinput --name "jukebox test keys" --settle-ms 1000 --linger-ms 1000 \
    KEY_PLAYPAUSE=1 +50ms KEY_PLAYPAUSE=0 +1500ms \
    KEY_PLAYPAUSE=1 +50ms KEY_PLAYPAUSE=0 +300ms KEY_NEXTSONG=1 +50ms KEY_NEXTSONG=0 +1500ms \
    REL_DIAL=1 +20ms REL_DIAL=1 +20ms REL_DIAL=1 +300ms REL_DIAL=-1 &
keys=$!
wait_for 'press → play-pause' 15 || { fail "KEY_PLAYPAUSE gave no action: $(tail -n 5 /tmp/jukebox.log)"; return; }
usleep 300000
paused=$(status state)
wait_for 'press → next' 5 || { fail "KEY_NEXTSONG gave no action"; return; }
usleep 300000
song=$(status song); state=$(status state)
wait_for 'turn-' 5 || { fail "REL_DIAL gave no action"; return; }
usleep 300000
volume=$(status volume)
wait $keys
usleep 500000
actions
echo "after one play-pause: $paused; after the second and next: $state, song $song; volume $volume"
grep -q '"jukebox test keys" (/dev/input/event' /tmp/jukebox.log || { fail "the device was not opened when it appeared"; return; }
[ "$paused" = pause ] || { fail "KEY_PLAYPAUSE did not pause ($paused)"; return; }
[ "$state" = play ] && [ "$song" = 1 ] || { fail "KEY_PLAYPAUSE then KEY_NEXTSONG: state $state, song $song"; return; }
[ "$volume" = 60 ] || { fail "REL_DIAL +3 -1 from 50 in steps of 5 gave volume $volume"; return; }
grep -q 'went away' /tmp/jukebox.log || { fail "the device going away was not noticed"; return; }
pass
