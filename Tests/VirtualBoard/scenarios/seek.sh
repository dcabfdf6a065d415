# seekcur to 4 s: the recording continues with the reference from that point (FLAC seeks
# are exact; only the 5 ms fade-in differs, and its first frames may be exact zeros).
record 30 /tmp/seek.raw
start_jukebox $FIX/long --exit-when-done
sleep 1
ctl seekcur 4
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
segments /tmp/seek.raw $FIX/long.ref
grep "took effect" /tmp/jukebox.log
second=$(music_segments /tmp/seek.raw $FIX/long.ref | sed -n 2p)
[ -n "$second" ] || { fail "no second stretch after the seek"; return; }
at=$(field ref "$second")
[ "$at" -ge 176400 ] && [ "$at" -le 176620 ] || { fail "continued at frame $at, not 176400"; return; }
[ "$(field mismatched "$second")" -le 441 ] || { fail "more than the fade-in differs after the seek: $second"; return; }
[ "$(( at + $(field frames "$second") ))" -eq 264600 ] || { fail "did not play to the end: $second"; return; }
stale_ok /tmp/seek.raw $FIX/long.ref || { fail "unexplained audio in the recording"; return; }
pass
