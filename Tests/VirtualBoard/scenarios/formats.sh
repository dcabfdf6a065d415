# An audiobook in AAC (an M4B of three chapters, 44.1 kHz) and an Opus file (48 kHz) play
# to the loopback card: each recording is the guest's own decode of the file, sample for
# sample, as one unbroken stretch (the chapters join as the file does).
decode $FIX/m4b/book.m4b > /tmp/m4b.ref
record 30 /tmp/m4b.raw
start_jukebox $FIX/m4b --exit-when-done
wait_jukebox || { fail "the M4B did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
grep -q "book.m4b/chapter003" /tmp/jukebox.log || { fail "the M4B did not play as chapters: $(tail -n 3 /tmp/jukebox.log)"; return; }
got=$(music_segments /tmp/m4b.raw /tmp/m4b.ref | sed 's/^segment start=[0-9]* //')
[ "$got" = "ref=0 frames=264600 mismatched=0" ] || { fail "the M4B is not its decode, sample for sample: $got"; return; }
stale_ok /tmp/m4b.raw /tmp/m4b.ref || { fail "unexplained audio in the M4B's recording"; return; }

decode $FIX/opus/long48.opus > /tmp/opus.ref
RATE=48000 record 30 /tmp/opus.raw
start_jukebox $FIX/opus --exit-when-done
wait_jukebox || { fail "the Opus file did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
got=$(music_segments /tmp/opus.raw /tmp/opus.ref | sed 's/^segment start=[0-9]* //')
[ "$got" = "ref=0 frames=288000 mismatched=0" ] || { fail "the Opus file is not its decode, sample for sample: $got"; return; }
stale_ok /tmp/opus.raw /tmp/opus.ref || { fail "unexplained audio in the Opus recording"; return; }
pass
