# An interruption input (a level line, e.g. a headphone switch or an intercom): while it
# is active the player is paused; when it goes inactive playback resumes.
lines_up 16
INPUT='[[input.interruption]]
name = "intercom"
line = 16'
record 30 /tmp/interrupt.raw
start_jukebox $FIX/long --exit-when-done
sleep 1
gpio 16=0
usleep 300000
state=$(status state)
sleep 1
gpio 16=1
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
actions
echo "state while active: $state"
[ "$state" = pause ] || { fail "the interruption did not pause (state $state)"; return; }
actions | grep -q 'begin → interruption began' && actions | grep -q 'end → interruption ended' || { fail "missing interruption actions"; return; }
got=$(music_segments /tmp/interrupt.raw $FIX/long.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 2 ] || { fail "expected the music in two stretches around the interruption: $got"; return; }
[ "$(( $(field ref "$(echo "$got" | sed -n 2p)") + $(field frames "$(echo "$got" | sed -n 2p)") ))" -eq 264600 ] || { fail "it did not resume and play to the end"; return; }
pass
