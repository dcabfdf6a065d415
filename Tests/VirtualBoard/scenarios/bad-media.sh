# Valid files among truncated, garbage and empty ones: every valid file plays, every bad
# one is skipped with a logged reason, and the daemon keeps running.
cat $FIX/flac.ref > /tmp/plays.ref
decode $FIX/plays/2.mp3 >> /tmp/plays.ref
record 30 /tmp/bad.raw
start_jukebox $FIX/bad
i=0
while [ $i -lt 300 ] && ! grep -q "end of the queue" /tmp/jukebox.log; do usleep 100000; i=$((i + 1)); done
running || { fail "the daemon died"; return; }
ctl status > /dev/null || { fail "the daemon stopped answering"; return; }
wait_record
segments /tmp/bad.raw /tmp/plays.ref
grep -E "library|skipping" /tmp/jukebox.log
grep -q "3-garbage.mp3: not a supported audio file" /tmp/jukebox.log || { fail "garbage file not reported"; return; }
grep -q "4-empty.flac: empty file" /tmp/jukebox.log || { fail "empty file not reported"; return; }
grep -Eq "2-truncated.flac.*(truncated|skipping)" /tmp/jukebox.log || { fail "truncated file not reported"; return; }
# Both valid files were heard whole and exact: the FLAC's and the MP3's references.
got=$(music_segments /tmp/bad.raw /tmp/plays.ref | sed 's/^segment start=[0-9]* //')
# (When the truncated file between them yields no audio at all, the two join gaplessly.)
if ! echo "$got" | grep -q "^ref=0 frames=264600 mismatched=0$"; then
    echo "$got" | grep -q "^ref=0 frames=132300 mismatched=0$" || { fail "the FLAC was not heard whole: $got"; return; }
    echo "$got" | grep -q "^ref=132300 frames=132300 mismatched=0$" || { fail "the MP3 was not heard whole: $got"; return; }
fi
running || { fail "the daemon died"; return; }
pass
