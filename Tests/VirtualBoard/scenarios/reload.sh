# Editing the config while it plays, as an admin over SSH does (the editor saves by
# rename): a broken edit is refused with its line and changes nothing; a good one moves
# the play-pause button from line 5 to line 6 on the real GPIO chip. Line 5 then does
# nothing, line 6 pauses and plays, and the music never stops for either edit: the
# recording has it in exactly two stretches, around the pause.
lines_up 5 6
INPUT='[[input.button]]
line = 5
press = "play-pause"'
record 30 /tmp/reload.raw
start_jukebox $FIX/long --exit-when-done
t=0; while [ "$(status state)" != play ] && [ $t -lt 100 ]; do usleep 50000; t=$((t + 1)); done
# save EXPR: the config edited by sed into a new file renamed over it.
save() { sed "$1" /tmp/jukebox.toml > /tmp/jukebox.toml.new && mv /tmp/jukebox.toml.new /tmp/jukebox.toml; }
save 's/^line = 5$/line = five/'
wait_for "keeping the running config" 5 || { fail "the broken edit was not refused: $(tail -n 3 /tmp/jukebox.log)"; return; }
grep "config:" /tmp/jukebox.log
grep -q "jukebox.toml:[0-9]*:.*keeping the running config" /tmp/jukebox.log || { fail "the refusal does not name the line"; return; }
save 's/^line = five$/line = 6/'
wait_for "applied inputs" 5 || { fail "the good edit was not applied: $(tail -n 3 /tmp/jukebox.log)"; return; }
usleep 300000
gpio 5=0 +60ms 5=1          # the old line: nothing
usleep 300000
gpio 6=0 +60ms 6=1          # pause
sleep 1
gpio 6=0 +60ms 6=1          # play
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
actions
[ "$(actions | grep -c "press → play-pause")" -eq 2 ] || { fail "expected two play-pause actions, from line 6 only"; return; }
got=$(music_segments /tmp/reload.raw $FIX/long.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 2 ] || { fail "expected the music in two stretches around the pause, with no gap for the edits: $got"; return; }
first=$(echo "$got" | sed -n 1p); second=$(echo "$got" | sed -n 2p)
jump=$(( $(field ref "$second") - $(field ref "$first") - $(field frames "$first") ))
[ $jump -ge 0 ] && [ $jump -le 441 ] || { fail "resumed $jump frames away from the pause point"; return; }
[ $(( $(field ref "$second") + $(field frames "$second") )) -eq 264600 ] || { fail "the music did not play to its end"; return; }
pass
