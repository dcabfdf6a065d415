# 20 quick unplug/replug cycles of the loopback card while playing: the daemon survives,
# pauses and resumes each time from where it paused, ends up playing, and its memory
# stays bounded: under 4 MB (glibc grows a thread's heap in steps of about 1 MB, so a
# tighter bound would test the allocator; the 100-cycle figures are bench/unplug).
PLAYBACK='mode = "repeat-all"'
start_jukebox $FIX/long
aloop=/sys/bus/platform/drivers/snd_aloop
out=$(jukebox-board unplug-cycles --socket $CTL --pid "$JUKEBOX_PID" --cycles 20 --play 0.2 \
    --unplug "echo snd_aloop.0 > $aloop/unbind" --plug "echo snd_aloop.0 > $aloop/bind")
status=$?
echo "$out"
[ $status -eq 0 ] || { fail "$(echo "$out" | grep FAILED | head -1)"; return; }
running || { fail "the jukebox died"; return; }
[ "$(status state)" = play ] || { fail "not playing at the end: $(status state)"; return; }
growth=$(echo "$out" | sed -n 's/^rss: .*(\(-*[0-9]*\) KB)$/\1/p')
[ "$growth" -lt 4096 ] || { fail "RSS grew $growth KB over 20 cycles"; return; }
pass
