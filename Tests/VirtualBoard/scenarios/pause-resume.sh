# Pause for 1 s over the socket, then resume: silence for the pause, then the audio goes
# on from where it stopped (within 10 ms and the fade), nothing skipped or repeated.
record 10 /tmp/pause.raw
start_jukebox $FIX/long --exit-when-done
sleep 2
ctl pause 1
sleep 1
ctl pause 0
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
got=$(segments /tmp/pause.raw $FIX/long.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 2 ] || { fail "expected two stretches around the pause: $got"; return; }
first=$(echo "$got" | sed -n 1p); second=$(echo "$got" | sed -n 2p)
end1=$(( $(field ref "$first") + $(field frames "$first") ))
jump=$(( $(field ref "$second") - end1 ))
silence=$(( $(field start "$second") - $(field start "$first") - $(field frames "$first") ))
echo "continues $jump frames from where it paused; paused for $silence frames"
[ $(field ref "$first") -eq 0 ] || { fail "did not start at the beginning: $first"; return; }
[ $jump -ge -441 ] && [ $jump -le 441 ] || { fail "resumed $jump frames away from the pause point (limit 441 = 10 ms)"; return; }
[ $silence -ge 30000 ] || { fail "the pause was only $silence frames of silence"; return; }
[ $(field mismatched "$first") -le 441 ] && [ $(field mismatched "$second") -le 441 ] || { fail "more than the fades differ: $got"; return; }
pass
