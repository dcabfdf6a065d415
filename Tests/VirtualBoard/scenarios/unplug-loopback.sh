# The card the jukebox plays to is unbound mid-track, as a USB DAC is pulled out: the
# jukebox pauses with the reason, keeps its place, and lets go of the card so the kernel
# can remove it. Bound again, it resumes from that place by itself and plays to the end.
start_jukebox $FIX/long --exit-when-done
sleep 2
[ "$(status state)" = play ] || { fail "not playing before the unplug: $(status state)"; return; }
echo snd_aloop.0 > /sys/bus/platform/drivers/snd_aloop/unbind
t=0; while [ "$(status state)" != pause ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
ctl status
[ "$(status state)" = pause ] || { fail "not paused after the unplug: $(status state)"; return; }
[ "$(status error)" = "output lost: hw:Loopback,0,0" ] || { fail "no reason in the status: $(status error)"; return; }
kept=$(status elapsed)
usleep 500000
[ "$(status elapsed)" = "$kept" ] || { fail "the place moved while unplugged: $kept then $(status elapsed)"; return; }
t=0; while grep -q Loopback /proc/asound/cards && [ $t -lt 30 ]; do usleep 100000; t=$((t + 1)); done
grep -q Loopback /proc/asound/cards && { fail "the card is still held open after the unplug"; return; }
echo snd_aloop.0 > /sys/bus/platform/drivers/snd_aloop/bind
read -r bound _ < /proc/uptime
# The jukebox's own word that it resumed, then one status question (each costs a start
# of the jukebox binary: under load, polling could miss the rest of the track).
wait_for "resume took effect" 10 || { fail "did not resume when the card came back: $(status state) $(status error)"; return; }
answer=$(ctl status)
resumed=$(echo "$answer" | sed -n 's/^elapsed: //p')
[ "$(echo "$answer" | sed -n 's/^state: //p')" = play ] || { fail "not playing after the resume: $answer"; return; }
read -r now _ < /proc/uptime
echo "paused at $kept s; playing again, at $resumed s, $(awk -v a="$bound" -v b="$now" 'BEGIN { print b - a }') s after the card came back"
# Since the card came back the track can have moved on by no more than the time that
# passed (the guest may be slow to ask): more means it skipped, less that it went back.
awk -v a="$kept" -v b="$resumed" -v t="$bound" -v n="$now" 'BEGIN { exit !(b >= a && b <= a + (n - t) + 0.05) }' || { fail "resumed at $resumed, not from $kept"; return; }
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
grep "output:" /tmp/jukebox.log
grep -q "output: hw:Loopback,0,0 is back" /tmp/jukebox.log || { fail "the return was not logged"; return; }
pass
