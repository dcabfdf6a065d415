# The USB DAC is pulled out mid-track (QEMU's device_del: a real USB disconnect): the
# jukebox pauses with the reason and stays responsive; plugged back (device_add), it
# resumes by itself, and what the DAC received goes on from within the fade of the point
# where it paused: nothing skipped beyond the fade. The audio in flight to a pulled USB
# device is lost with it, so the jukebox goes on from where the driver last said the DAC
# was, less what the driver then had in flight and two periods more. How much QEMU's DAC
# had really taken varies from pull to pull (bench/unplug-usb-spread: 8 to 27 ms heard
# again), so what may be heard again is bounded by that design: two periods and the
# driver's largest queue (snd-usb-audio keeps at most 18 ms in flight), 1,824 frames.
usb_present || { fail "no USB DAC"; return; }
mark=$(usb_mark)
AUDIO="device = \"$USB_DAC\"" start_jukebox $FIX/long48 --exit-when-done
sleep 2
[ "$(status state)" = play ] || { fail "not playing before the unplug"; return; }
usb_unplug || { fail "the host did not unplug the DAC"; return; }
t=0; while [ "$(status state)" != pause ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
ctl status
[ "$(status state)" = pause ] || { fail "not paused after the unplug: $(status state)"; return; }
[ "$(status error)" = "output lost: $USB_DAC" ] || { fail "no reason in the status: $(status error)"; return; }
kept=$(status elapsed)
ctl setvol 90 > /dev/null && [ "$(status volume)" = 90 ] || { fail "not responsive while unplugged"; return; }
ctl setvol 100 > /dev/null
t=0; while usb_present && [ $t -lt 30 ]; do usleep 100000; t=$((t + 1)); done
usb_present && { fail "the DAC's card is still held open after the unplug"; return; }
usb_plug || { fail "the DAC did not come back"; return; }
# The jukebox's own word that it resumed: under load the rest of the track can be over
# before a status question gets through. The recording shows where it resumed.
wait_for "resume took effect" 10 || { fail "did not resume: $(status state) $(status error)"; return; }
echo "paused at $kept s, playing again"
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
grep "output:" /tmp/jukebox.log
sleep 1
usb_take "$mark" /tmp/unplug.raw
got=$(usb_segments /tmp/unplug.raw $FIX/long48.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 2 ] || { fail "expected two stretches around the unplug: $got"; return; }
first=$(echo "$got" | sed -n 1p); second=$(echo "$got" | sed -n 2p)
end1=$(( $(field ref "$first") + $(field frames "$first") ))
jump=$(( $(field ref "$second") - end1 ))
echo "resumed $jump frames from where the DAC stopped (negative: repeated)"
[ "$(field ref "$first")" -eq 0 ] || { fail "did not start at the beginning: $first"; return; }
[ $jump -ge -1824 ] && [ $jump -le 240 ] || { fail "resumed $jump frames away from the pause point"; return; }
[ "$(( $(field ref "$second") + $(field frames "$second") ))" -eq 288000 ] || { fail "did not play to the end: $second"; return; }
pass
