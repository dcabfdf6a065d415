# The USB DAC pulled out while the screen shows on the framebuffer: "output lost" appears
# on the panel, across the top, as `jukebox screenshot --notice` draws it, and goes when
# the DAC is back.
usb_present || { fail "no USB DAC"; return; }
track=$FIX/long48/long48.flac
AUDIO="device = \"$USB_DAC\"" start_jukebox $FIX/long48 --display /dev/fb0
wait_for "screen: drawing on /dev/fb0" 10 || { fail "the screen did not open /dev/fb0"; return; }
sleep 1.5
usb_unplug || { fail "the host did not unplug the DAC"; return; }
t=0; while [ "$(status state)" != pause ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
[ "$(status error)" = "output lost: $USB_DAC" ] || { fail "not lost: $(status state) $(status error)"; return; }
sleep 1
jukebox-board fb-grab --out /tmp/lost.png > /dev/null
at=$(status elapsed)
jukebox screenshot /tmp/shot.png --config /nonexistent --track "$track" --at "$at" --state paused --mode once --volume 100 \
    --notice "output lost: $USB_DAC" --size 320x240
cp /tmp/lost.png /out/screen-unplug.png 2>/dev/null
same=$(jukebox-board png-diff /tmp/lost.png /tmp/shot.png --format rgb565)
echo "panel against the screenshot with the notice, at $at s: $same"
[ "$(echo "$same" | sed 's/.*permille=\([0-9]*\).*/\1/')" -le 10 ] || { fail "the panel does not show the notice as the screenshot does: $same"; return; }
usb_plug || { fail "the DAC did not come back"; return; }
wait_for "resume took effect" 10 || { fail "did not resume"; return; }
sleep 1
jukebox-board fb-grab --out /tmp/back.png > /dev/null
ctl pause 1 > /dev/null
sleep 1
jukebox-board fb-grab --out /tmp/back.png > /dev/null
at=$(status elapsed)
jukebox screenshot /tmp/shot2.png --config /nonexistent --track "$track" --at "$at" --state paused --mode once --volume 100 --size 320x240
same=$(jukebox-board png-diff /tmp/back.png /tmp/shot2.png --format rgb565)
echo "after the replug, paused at $at s: $same"
[ "$(echo "$same" | sed 's/.*permille=\([0-9]*\).*/\1/')" -le 10 ] || { fail "the notice stayed after the DAC came back: $same"; return; }
pass
