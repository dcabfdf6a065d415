# Pause for 1 s over the socket, then resume: silence for the pause, then the audio goes
# on from where it faded out (within 10 ms and the 5 ms fade), nothing skipped or repeated.
record 30 /tmp/pause.raw
start_jukebox $FIX/long --exit-when-done
sleep 2
ctl pause 1
sleep 1
ctl pause 0
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
segments /tmp/pause.raw $FIX/long.ref
got=$(music_segments /tmp/pause.raw $FIX/long.ref)
[ "$(echo "$got" | wc -l)" -eq 2 ] || { fail "expected two stretches around the pause: $got"; return; }
first=$(echo "$got" | sed -n 1p); second=$(echo "$got" | sed -n 2p)
end1=$(( $(field ref "$first") + $(field frames "$first") ))
jump=$(( $(field ref "$second") - end1 ))
silence=$(( $(field start "$second") - $(field start "$first") - $(field frames "$first") ))
echo "resumed $jump frames after the point it faded out from; paused for $silence frames"
grep "took effect" /tmp/jukebox.log
[ "$(field ref "$first")" -eq 0 ] || { fail "did not start at the beginning: $first"; return; }
[ $jump -ge 0 ] && [ $jump -le 441 ] || { fail "resumed $jump frames from the pause point (0 to 441 allowed: the fade, 10 ms)"; return; }
[ $silence -ge 30000 ] || { fail "the pause was only $silence frames of silence"; return; }
[ "$(field mismatched "$first")" -le 441 ] && [ "$(field mismatched "$second")" -le 441 ] || { fail "more than the fades differ: $got"; return; }
[ "$(( $(field ref "$second") + $(field frames "$second") ))" -eq 264600 ] || { fail "did not play to the end: $second"; return; }
stale_ok /tmp/pause.raw $FIX/long.ref || { fail "unexplained audio in the recording"; return; }
pass
