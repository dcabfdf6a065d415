# A FLAC then an MP3 play to hw:Loopback,0,0; the recording from hw:Loopback,1,0 must be
# the reference output (flac -d for the FLAC, the guest's own decode of the MP3), sample
# for sample, as one unbroken stretch. (Why the MP3 reference is decoded in the guest, and
# what the loopback adds after a stop: board.sh.)
cat $FIX/flac.ref > /tmp/plays.ref
decode $FIX/plays/2.mp3 >> /tmp/plays.ref
record 30 /tmp/plays.raw
start_jukebox $FIX/plays --exit-when-done
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
segments /tmp/plays.raw /tmp/plays.ref
got=$(music_segments /tmp/plays.raw /tmp/plays.ref | sed 's/^segment start=[0-9]* //')
[ "$got" = "ref=0 frames=264600 mismatched=0" ] || { fail "not the reference, sample for sample: $got"; return; }
stale_ok /tmp/plays.raw /tmp/plays.ref || { fail "unexplained audio in the recording"; return; }
pass
