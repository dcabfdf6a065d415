# The key lock on real GPIO lines: a long press on one button locks the keys, the other
# button's presses are then ignored (told once in the log, not per press), and the same
# long press unlocks them.
lines_up 8 9
PLAYBACK='start_volume = 50
volume_step = 5'
INPUT='[[input.button]]
name = "lock"
line = 8
press = "volume-down"
long = "key-lock"
[[input.button]]
name = "louder"
line = 9
press = "volume-up"'
start_jukebox $FIX/scan
wait_for 'button "louder" on' || { fail "the buttons were not set up: $(tail -n 5 /tmp/jukebox.log)"; return; }
sleep 1
gpio 8=0 +1000ms 8=1
wait_for 'keys locked' 5 || { fail "the long press did not lock the keys: $(tail -n 5 /tmp/jukebox.log)"; return; }
gpio 9=0 +80ms 9=1 +200ms 9=0 +80ms 9=1 +200ms 9=0 +80ms 9=1
usleep 500000
[ "$(status volume)" = 50 ] || { fail "a locked button changed the volume to $(status volume)"; return; }
told=$(grep -c 'the keys are locked; button "louder" ignored' /tmp/jukebox.log)
[ "$told" -eq 1 ] || { fail "three ignored presses were told $told times (once per burst expected)"; return; }
gpio 8=0 +1000ms 8=1
wait_for 'keys unlocked' 5 || { fail "the same long press did not unlock the keys"; return; }
gpio 9=0 +80ms 9=1
t=0; while [ "$(status volume)" != 55 ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
[ "$(status volume)" = 55 ] || { fail "unlocked, the button did not work: volume $(status volume)"; return; }
grep -E 'keys (un)?locked|keys are locked' /tmp/jukebox.log
pass
