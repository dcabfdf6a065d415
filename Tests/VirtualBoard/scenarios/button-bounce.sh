# Contact bounce: a press with five 1 ms bounces, and a release that bounces too, is one
# action; ten deliberate presses 100 ms apart are ten.
lines_up 6 7
INPUT='[[input.button]]
line = 6
press = "play-pause"
[[input.button]]
line = 7
press = "volume-down"'
start_jukebox $FIX/long
wait_for "button \"volume-down\" on" || { fail "the buttons were not set up: $(tail -n 5 /tmp/jukebox.log)"; return; }
sleep 1
# Down, then five bounces (up and down again, 1 ms each), held; released with bounces.
gpio 6=0 +1ms 6=1 +1ms 6=0 +1ms 6=1 +1ms 6=0 +1ms 6=1 +1ms 6=0 +1ms 6=1 +1ms 6=0 +1ms 6=1 +1ms 6=0 \
    +150ms 6=1 +1ms 6=0 +1ms 6=1 +1ms 6=0 +1ms 6=1
usleep 500000
bounced=$(actions | grep -c 'play-pause')
echo "bouncy press: $bounced action(s), state $(status state)"
[ "$bounced" -eq 1 ] || { fail "a bouncy press gave $bounced actions"; return; }
[ "$(status state)" = pause ] || { fail "the bouncy press did not pause"; return; }
# Ten presses, 50 ms down and 50 ms up: volume 100 down by ten steps of 5.
steps=""
i=0
while [ $i -lt 10 ]; do steps="$steps 7=0 +50ms 7=1 +50ms"; i=$((i + 1)); done
gpio $steps
usleep 500000
fast=$(actions | grep -c 'volume-down')
echo "ten fast presses: $fast actions, volume $(status volume)"
[ "$fast" -eq 10 ] || { fail "ten presses 100 ms apart gave $fast actions"; return; }
[ "$(status volume)" = 50 ] || { fail "volume is $(status volume) after ten steps down from 100"; return; }
pass
