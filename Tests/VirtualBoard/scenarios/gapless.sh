# Three tracks cut from one signal at sample boundaries (the middle one shorter than the
# decode-ahead) play as one stream: no inserted, dropped or repeated samples.
record 30 /tmp/gapless.raw
start_jukebox $FIX/gapless --exit-when-done
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
segments /tmp/gapless.raw $FIX/gapless.ref
got=$(music_segments /tmp/gapless.raw $FIX/gapless.ref | sed 's/^segment start=[0-9]* //')
[ "$got" = "ref=0 frames=264600 mismatched=0" ] || { fail "not one unbroken stream: $got"; return; }
stale_ok /tmp/gapless.raw $FIX/gapless.ref || { fail "unexplained audio in the recording"; return; }
pass
