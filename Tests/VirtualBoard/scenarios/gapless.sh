# Three tracks cut from one signal play as one stream: no inserted, dropped or repeated
# samples at the boundaries.
record 9 /tmp/gapless.raw
start_jukebox $FIX/gapless --exit-when-done
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
got=$(segments /tmp/gapless.raw $FIX/gapless.ref)
want=$(segments $FIX/gapless.ref $FIX/gapless.ref | sed 's/start=[0-9]*//')
echo "recorded: $got"
if [ "$(echo "$got" | sed 's/start=[0-9]*//')" = "$want" ]; then pass; else fail "not one unbroken stream: $got"; fi
