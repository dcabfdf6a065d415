# The sleep timer over the socket, as `jukebox ctl sleep` sets it: 0.2 minutes (12 s) with
# a 6 s fade, while a steady tone plays (a 60 s sine at -12 dB). The recording shows the
# level steady, then falling second by second over the fade, then silence: the music stops
# at the set time within 1 s (the figure), and the volume clients see never moved.
INPUT='[sleep]
fade_seconds = 6'
record 40 /tmp/sleep.raw
read -r recording_from _ < /proc/uptime
start_jukebox $FIX/scan
t=0; while [ "$(status state)" != play ] && [ $t -lt 100 ]; do usleep 50000; t=$((t + 1)); done
[ "$(status state)" = play ] || { fail "never played: $(tail -n 3 /tmp/jukebox.log)"; return; }
sleep 3
read -r set_at _ < /proc/uptime
ctl sleep 0.2 > /dev/null || { fail "sleep 0.2 was refused"; return; }
ctl sleep
volume=$(status volume)
t=0; while [ "$(status state)" != pause ] && [ $t -lt 300 ]; do usleep 100000; t=$((t + 1)); done
[ "$(status state)" = pause ] || { fail "never paused: $(tail -n 3 /tmp/jukebox.log)"; return; }
sleep 2
wait_record
cp /tmp/sleep.raw /out/ 2>/dev/null
grep "sleep timer" /tmp/jukebox.log
[ "$(status volume)" = "$volume" ] || { fail "the volume moved: $volume, then $(status volume)"; return; }
[ "$(ctl sleep)" = "sleep: off" ] || { fail "the timer is still set: $(ctl sleep)"; return; }
jukebox-board levels --file /tmp/sleep.raw --window-ms 500 > /tmp/levels
# Times in the recording: set (from /proc/uptime, against when the recording began) and the
# last sound; the windows of the steady tone, of the fade, and after.
set=$(awk -v a="$set_at" -v b="$recording_from" 'BEGIN { printf "%.3f", a - b }')
last=$(sed -n 's/^last_sound=//p' /tmp/levels)
due=$(awk -v s="$set" 'BEGIN { printf "%.3f", s + 12 }')
error=$(awk -v l="$last" -v d="$due" 'BEGIN { printf "%.3f", l - d }')
echo "set at ${set} s into the recording, due at ${due} s; last sound at ${last} s: ${error} s from the set time"
echo "level per half second from 2 s before the fade to 1 s after the stop (dBFS):"
# (Fields made numbers with + 0: busybox awk compares what sub() left as strings.)
awk -v d="$due" '/^t=/ { sub(/t=/, "", $1); sub(/db=/, "", $2); t = $1 + 0; db = $2 + 0
    if (t >= d - 8.5 && t < d + 1) printf "  %6.2f s  %7.2f\n", t - d, db }' /tmp/levels
awk -v l="$last" -v d="$due" 'BEGIN { e = l - d; exit !(e >= -1 && e <= 1) }' || { fail "the music stopped ${error} s from the set time (±1 s allowed)"; return; }
# Steady before the fade; falling through it (each second lower than the one before, and
# 20 dB down a second before the end); silence after the stop.
awk -v d="$due" '/^t=/ { sub(/t=/, "", $1); sub(/db=/, "", $2); t = $1 - d; db = $2 + 0
    if (t >= -8 && t < -6.5) { if (steady == "") steady = db; if (db < steady - 1 || db > steady + 1) bad = bad " unsteady@" t }
    if (t >= -6 && t < -0.5) { if (prev != "" && db >= prev) bad = bad " rose@" t; prev = db; end = db }
    if (t >= 0.5 && t < 2 && db > -100) bad = bad " sound-after@" t }
    END { if (end > steady - 20) bad = bad " shallow(" end " vs " steady ")"; if (bad != "") { print bad; exit 1 } }' /tmp/levels \
    || { fail "the fade is not a steady fall to silence: $(cat /tmp/levels | tail -n 40 | tr '\n' ' ')"; return; }
pass
