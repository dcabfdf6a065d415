# Long press and hold: a long press gives the long action and not the short one; a held
# fast-forward skips again and again until it is released.
lines_up 8 9
PLAYBACK='scan_step_seconds = 2
scan_interval_ms = 200'
INPUT='[[input.button]]
name = "next-or-mode"
line = 8
press = "next"
long = "mode"
[[input.button]]
name = "next-or-scan"
line = 9
press = "next"
hold = "fast-forward"'
start_jukebox $FIX/scan
wait_for 'button "next-or-scan" on' || { fail "the buttons were not set up: $(tail -n 5 /tmp/jukebox.log)"; return; }
sleep 1
mode_before=$(status repeat)
gpio 8=0 +1000ms 8=1
usleep 300000
actions
[ "$(actions | grep -c 'long → next mode')" -eq 1 ] || { fail "the long press gave no long action"; return; }
actions | grep -q 'press → next' && { fail "the long press also gave the short action"; return; }
[ "$(status repeat)" != "$mode_before" ] || { fail "the mode did not change"; return; }
[ "$(status song)" = 0 ] || { fail "the long press moved to another track"; return; }
before=$(status elapsed)
gpio 9=0 +1500ms 9=1
# A busy guest can take a good part of a second to answer a status, so the drift after
# release is measured against the time that really passed, not against the sleep.
read -r since _ < /proc/uptime
after=$(status elapsed)
sleep 1
later=$(status elapsed)
read -r until _ < /proc/uptime
echo "elapsed: $before before holding, $after after 1.5 s held, $later a second later ($since to $until s uptime)"
actions | grep -q 'hold → fast-forward begin' || { fail "no fast-forward began"; return; }
actions | grep -q 'release → fast-forward end' || { fail "the fast-forward did not end on release"; return; }
moved=$(echo "$before $after" | awk '{ printf "%d", $2 - $1 }')
# One more step would add scan_step_seconds (2 s) beyond the time that passed.
drift=$(echo "$after $later $since $until" | awk '{ printf "%d", (($2 - $1) - ($4 - $3)) * 10 }')
[ "$moved" -ge 6 ] || { fail "holding fast-forward for 1.5 s moved only $moved s"; return; }
[ "$drift" -le 10 ] || { fail "it kept scanning after release ($after to $later in $(echo "$since $until" | awk '{ printf "%.1f", $2 - $1 }') s)"; return; }
[ "$(status song)" = 0 ] || { fail "the hold went past the end of the track"; return; }
pass
