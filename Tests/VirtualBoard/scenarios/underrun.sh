# The whole jukebox is stopped for 300 ms (SIGSTOP), as on a board too busy to schedule it:
# the card runs dry. The log says so, with the count, and the music then goes on from where
# it stopped: nothing is skipped. (While dry, the loopback replays its buffer's old content,
# as real cards do, so a stretch may repeat; it may not jump ahead.)
record 30 /tmp/underrun.raw
start_jukebox $FIX/long --exit-when-done
sleep 1
kill -STOP "$JUKEBOX_PID"; usleep 300000; kill -CONT "$JUKEBOX_PID"
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
wait_record
grep underrun /tmp/jukebox.log
grep -q "output: underrun: the device ran dry and the sound dropped out (1 since start)" /tmp/jukebox.log ||
    { fail "the first underrun was not logged"; return; }
got=$(music_segments /tmp/underrun.raw $FIX/long.ref)
echo "$got"
reached=0
for line in $(echo "$got" | sed 's/ /,/g'); do
    line=$(echo "$line" | tr ',' ' ')
    ref=$(field ref "$line")
    [ "$ref" -le $((reached + 441)) ] || { fail "the music jumped from frame $reached to $ref"; return; }
    end=$((ref + $(field frames "$line")))
    [ $end -gt $reached ] && reached=$end
done
[ $reached -eq 264600 ] || { fail "did not play to the end: reached frame $reached"; return; }
pass
