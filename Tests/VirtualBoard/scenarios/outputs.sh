# MPD's outputs switched by a client: the USB DAC preferred, the loopback after it.
# disableoutput 0 moves the music to the loopback, whose recording then holds it;
# enableoutput 0 brings it back to the DAC. `outputs` says which are on and which plays.
usb_present || { fail "no USB DAC"; return; }
PLAYBACK='mode = "repeat-all"' AUDIO="devices = [\"$USB_DAC\", \"hw:Loopback,0,0\"]" start_jukebox $FIX/long48
route() { ctl status | sed -n 's/^output: //p'; }
wait_route() { t=0; while [ "$(route)" != "playing on $1" ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done; [ "$(route)" = "playing on $1" ]; }
wait_route "$USB_DAC" || { fail "not playing on the DAC first: $(route)"; return; }
ctl disableoutput 0 > /dev/null || { fail "disableoutput refused"; return; }
wait_route "hw:Loopback,0,0" || { fail "disableoutput 0 did not move the music to the loopback: $(route)"; return; }
[ "$(status state)" = play ] || { fail "not playing after the switch: $(status state)"; return; }
ctl outputs > /tmp/outputs.txt
grep -q "^outputenabled: 0$" /tmp/outputs.txt || { fail "outputs does not show the DAC switched off: $(cat /tmp/outputs.txt)"; return; }
grep -q "^attribute: playing=1$" /tmp/outputs.txt || { fail "outputs does not say which plays: $(cat /tmp/outputs.txt)"; return; }
# The loopback carries the music now: a second recorded from it is the track, unbroken.
jukebox-board record --device hw:Loopback,1,0 --rate 48000 --seconds 1 --out /tmp/outputs.raw || { fail "cannot record the loopback"; return; }
got=$(jukebox-board segments --recording /tmp/outputs.raw --reference $FIX/long48.ref --rate 48000 | grep -v 'ref=-1')
echo "on the loopback: $got"
# One stretch of the track, or two when the second crossed its end (repeat-all starts it
# again from frame 0): 40,000 frames or more, none mismatched.
frames=$(echo "$got" | awk '{ f = $4; sub(/frames=/, "", f); n += f } END { print n + 0 }')
wrapped=$(echo "$got" | sed -n 2p | grep -c ' ref=0 ' || true)
{ [ "$(echo "$got" | wc -l)" = 1 ] || { [ "$(echo "$got" | wc -l)" = 2 ] && [ "$wrapped" = 1 ]; }; } \
    && [ "$frames" -ge 40000 ] && ! echo "$got" | grep -qv 'mismatched=0$' \
    || { fail "the loopback does not carry the track: $got"; return; }
ctl enableoutput 0 > /dev/null || { fail "enableoutput refused"; return; }
wait_route "$USB_DAC" || { fail "enableoutput 0 did not bring the music back to the DAC: $(route)"; return; }
[ "$(status state)" = play ] || { fail "not playing back on the DAC: $(status state)"; return; }
ctl enableoutput 5 > /dev/null 2>&1 && { fail "enableoutput 5 (no such output) was taken"; return; }
grep "output:" /tmp/jukebox.log
pass
