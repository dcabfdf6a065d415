# Valid files among truncated, garbage and empty ones: every valid file plays, every bad
# one is skipped (or cut short) with a logged reason, and the daemon keeps running.
cat $FIX/flac.ref > /tmp/plays.ref
decode $FIX/plays/2.mp3 >> /tmp/plays.ref
record 10 /tmp/bad.raw
start_jukebox $FIX/bad
i=0
while [ $i -lt 200 ] && ! grep -q "end of the queue" /tmp/jukebox.log; do usleep 100000; i=$((i + 1)); done
running || { fail "the daemon died"; return; }
ctl status > /tmp/status.txt || { fail "the daemon stopped answering"; return; }
wait_record
segments /tmp/bad.raw /tmp/plays.ref
cat /tmp/jukebox.log | grep -E "library|skipping|truncated" 
grep -q "3-garbage.mp3" /tmp/jukebox.log || { fail "garbage file not reported"; return; }
grep -q "4-empty.flac" /tmp/jukebox.log || { fail "empty file not reported"; return; }
grep -q "truncated" /tmp/jukebox.log || { fail "truncated file not reported"; return; }
# Both good files were heard in full: the FLAC's and the MP3's references both appear.
n=$(segments /tmp/bad.raw /tmp/plays.ref | awk '$3 != "ref=-1"' | wc -l)
[ "$n" -ge 2 ] || { fail "the valid files were not both heard"; return; }
pass
