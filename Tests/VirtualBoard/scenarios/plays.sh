# A FLAC then an MP3 play to hw:Loopback,0,0; the recording from hw:Loopback,1,0 must be
# the reference output (flac -d for the FLAC, the guest's own decode of the MP3), sample
# for sample, as one unbroken stretch.
cat $FIX/flac.ref > /tmp/plays.ref
decode $FIX/plays/2.mp3 >> /tmp/plays.ref
record 9 /tmp/plays.raw
start_jukebox $FIX/plays --exit-when-done
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
got=$(segments /tmp/plays.raw /tmp/plays.ref)
want=$(segments /tmp/plays.ref /tmp/plays.ref | sed 's/start=[0-9]*//')
echo "recorded: $got"
echo "expected: $want"
if [ "$(echo "$got" | sed 's/start=[0-9]*//')" = "$want" ]; then pass; else fail "recording differs from the reference: $got"; fi
