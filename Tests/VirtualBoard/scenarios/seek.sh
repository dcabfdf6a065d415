# seekcur to 4 s: the recording continues with the reference from that point (FLAC seeks
# are exact; only the fade-in differs).
record 8 /tmp/seek.raw
start_jukebox $FIX/long --exit-when-done
sleep 1
ctl seekcur 4
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
got=$(segments /tmp/seek.raw $FIX/long.ref)
echo "$got"
second=$(echo "$got" | sed -n 2p)
[ -n "$second" ] || { fail "no second stretch after the seek: $got"; return; }
[ "$(field ref "$second")" -eq 176400 ] || { fail "continued at frame $(field ref "$second"), not 176400"; return; }
[ "$(field mismatched "$second")" -le 441 ] || { fail "more than the fade-in differs after the seek: $second"; return; }
pass
