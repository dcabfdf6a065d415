# Two devices, the USB DAC preferred and the loopback as fallback. Unplug the DAC: the
# player pauses. Play: it goes to the loopback. Plug the DAC back: playback moves to it.
usb_present || { fail "no USB DAC"; return; }
PLAYBACK='mode = "repeat-all"' AUDIO="devices = [\"$USB_DAC\", \"hw:Loopback,0,0\"]" start_jukebox $FIX/long48
route() { ctl status | sed -n 's/^output: //p'; }
t=0; while [ "$(route)" != "playing on $USB_DAC" ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
[ "$(route)" = "playing on $USB_DAC" ] || { fail "not playing on the DAC first: $(route)"; return; }
usb_unplug || { fail "the host did not unplug the DAC"; return; }
t=0; while [ "$(status state)" != pause ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
[ "$(status state)" = pause ] || { fail "not paused when the DAC went: $(status state)"; return; }
echo "unplugged: $(route), $(status error)"
ctl play > /dev/null
t=0; while [ "$(route)" != "playing on hw:Loopback,0,0" ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
[ "$(route)" = "playing on hw:Loopback,0,0" ] || { fail "play did not go to the loopback: $(route)"; return; }
[ "$(status state)" = play ] || { fail "not playing on the loopback: $(status state)"; return; }
echo "after play: $(route)"
usb_plug || { fail "the DAC did not come back"; return; }
t=0; while [ "$(route)" != "playing on $USB_DAC" ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
[ "$(route)" = "playing on $USB_DAC" ] || { fail "playback did not move back to the DAC: $(route)"; return; }
[ "$(status state)" = play ] || { fail "not playing after the move: $(status state)"; return; }
echo "after replug: $(route)"
grep "output:" /tmp/jukebox.log
pass
