# A book of three chapters in one FLAC (a CUE sheet in its tags) plays as three tracks:
# next during chapter 1 starts chapter 2 on its first sample (88200), at full level (a
# new track has no fade-in), and chapter 3 follows it without a gap, to the end of the
# file. The stretch may begin a few frames early with what is left of chapter 1's fade-out
# (near silence, which can pass for the reference's frames before 88200): those frames
# are the only ones allowed to differ, and all of them lie before 88200.
record 30 /tmp/chapters.raw
start_jukebox $FIX/book --exit-when-done
sleep 1
ctl next
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
segments /tmp/chapters.raw $FIX/long.ref
second=$(music_segments /tmp/chapters.raw $FIX/long.ref | sed -n 2p)
[ -n "$second" ] || { fail "no second stretch after next"; return; }
at=$(field ref "$second")
early=$((88200 - at))
[ "$early" -ge 0 ] && [ "$early" -le 441 ] || { fail "next landed at frame $at, not on chapter 2's first sample (88200)"; return; }
[ "$(field mismatched "$second")" -le "$early" ] || { fail "samples from chapter 2 on differ: $second"; return; }
[ "$(( at + $(field frames "$second") ))" -eq 264600 ] || { fail "chapter 3 did not follow to the end: $second"; return; }
stale_ok /tmp/chapters.raw $FIX/long.ref || { fail "unexplained audio in the recording"; return; }
pass
