# A button on a simulated GPIO line toggles play and pause: the recording has the music,
# a silence as long as the pause, then the music again from where it stopped.
lines_up 5
INPUT='[[input.button]]
line = 5
press = "play-pause"'
record 30 /tmp/button.raw
start_jukebox $FIX/long --exit-when-done
sleep 1
gpio 5=0 +60ms 5=1          # pause
sleep 1
gpio 5=0 +60ms 5=1          # play
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
actions
grep "heard" /tmp/jukebox.log
[ "$(actions | grep -c 'press → play-pause')" -eq 2 ] || { fail "expected two play-pause actions"; return; }
got=$(music_segments /tmp/button.raw $FIX/long.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 2 ] || { fail "expected the music in two stretches around the pause: $got"; return; }
first=$(echo "$got" | sed -n 1p); second=$(echo "$got" | sed -n 2p)
silence=$(( $(field start "$second") - $(field start "$first") - $(field frames "$first") ))
jump=$(( $(field ref "$second") - $(field ref "$first") - $(field frames "$first") ))
echo "paused for $silence frames; resumed $jump frames from where it stopped"
[ $silence -ge 30000 ] || { fail "the pause was only $silence frames of silence"; return; }
[ $jump -ge 0 ] && [ $jump -le 441 ] || { fail "resumed $jump frames away from the pause point"; return; }
grep -q "pause heard .* ms after the edge" /tmp/jukebox.log || { fail "no edge-to-effect line for the pause"; return; }
pass
