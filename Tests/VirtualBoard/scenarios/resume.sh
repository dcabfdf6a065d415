# A power cut while playing (SIGKILL: no shutdown path runs) and a restart: the box loads
# its state and carries on with the same track within interval + 1 s of the last sample
# the card played, as the recording shows. Then the same while paused: it comes back
# paused (resume = "playing").
STATE='file = "/tmp/resume.state"
interval = 1'
rm -f /tmp/resume.state /tmp/resume.state.prev
record 30 /tmp/resume.raw
start_jukebox $FIX/long --exit-when-done
t=0; while [ "$(status state)" != play ] && [ $t -lt 100 ]; do usleep 50000; t=$((t + 1)); done
sleep 3
kill -9 "$JUKEBOX_PID"; wait "$JUKEBOX_PID" 2>/dev/null
cat /tmp/resume.state
start_jukebox $FIX/long --exit-when-done
wait_for "state: /tmp/resume.state: .*long" || { fail "the state was not loaded: $(head -n 5 /tmp/jukebox.log)"; return; }
wait_jukebox || { fail "it did not play to the end after the restart"; return; }
wait_record
got=$(music_segments /tmp/resume.raw $FIX/long.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 2 ] || { fail "expected the music in two stretches, before and after the cut: $got"; return; }
first=$(echo "$got" | sed -n 1p) second=$(echo "$got" | sed -n 2p)
cut=$(( $(field ref "$first") + $(field frames "$first") ))
resumed=$(field ref "$second")
echo "last heard before the cut: frame $cut; resumed at frame $resumed"
[ "$(field ref "$first")" -le 441 ] || { fail "the first run did not start at the top"; return; }
[ $((cut - resumed)) -le 88200 ] || { fail "resumed more than interval + 1 s (88200 frames) before the cut: $cut → $resumed"; return; }
[ "$resumed" -le $((cut + 441)) ] || { fail "resumed after the cut, skipping music: $cut → $resumed"; return; }
[ $((resumed + $(field frames "$second"))) -eq 264600 ] || { fail "it did not play to the end after resuming"; return; }

# Paused, then cut: it comes back paused at the same place.
start_jukebox $FIX/long
t=0; while [ "$(status state)" != play ] && [ $t -lt 100 ]; do usleep 50000; t=$((t + 1)); done
ctl seekcur 3 > /dev/null
ctl pause 1 > /dev/null
usleep 1500000
paused_at=$(status elapsed)
kill -9 "$JUKEBOX_PID"; wait "$JUKEBOX_PID" 2>/dev/null
start_jukebox $FIX/long
wait_for "state: /tmp/resume.state: .*paused" || { fail "the paused state was not loaded: $(head -n 5 /tmp/jukebox.log)"; return; }
t=0; while [ "$(status state)" != pause ] && [ $t -lt 100 ]; do usleep 50000; t=$((t + 1)); done
echo "paused at $paused_at; after the restart: $(status state) at $(status elapsed)"
[ "$(status state)" = pause ] || { fail "it did not come back paused: $(status state)"; return; }
awk -v a="$paused_at" -v b="$(status elapsed)" 'BEGIN { d = a - b; exit !(d < 0.05 && d > -0.05) }' ||
    { fail "it came back at $(status elapsed), not at $paused_at"; return; }
pass
