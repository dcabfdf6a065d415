# The screen on a DRM display (QEMU's bochs-display, 320x240, through Debian's bochs
# driver): a dumb buffer scanned out, flushed with damage clips. The host takes what the
# display shows with QEMU's screendump; it equals `jukebox screenshot` of the same moment,
# it moves while playing, and stays the same while paused.
track="/tmp/screen/01 Twinkle Twinkle.flac"
[ -c /dev/dri/card0 ] || { fail "no /dev/dri/card0"; return; }
mkdir -p /tmp/screen && cp $FIX/screen/* /tmp/screen/
start_jukebox /tmp/screen --display /dev/dri/card0
wait_for "screen: drawing on /dev/dri/card0" 10 || { fail "the screen did not open /dev/dri/card0: $(grep screen: /tmp/jukebox.log)"; return; }
grep "screen: drawing" /tmp/jukebox.log
wait_for "screen: lyric line 1 drawn" 15 || { fail "lyric line 1 was never drawn"; return; }

# screendump FILE: what the display shows now, as the host's QEMU sees it (PPM).
screendump() { host screendump && cp /out/host/screen.ppm "$1"; }
screendump /tmp/a.ppm || { fail "no screendump"; return; }
sleep 1.2
screendump /tmp/b.ppm
moving=$(jukebox-board png-diff /tmp/a.ppm /tmp/b.ppm)
echo "playing, 1.2 s apart: $moving"
[ "$(echo "$moving" | sed 's/.*differ=\([0-9]*\).*/\1/')" -gt 0 ] || { fail "nothing moved on the display while playing"; return; }

ctl pause 1 > /dev/null
sleep 1
screendump /tmp/p1.ppm
sleep 2
screendump /tmp/p2.ppm
still=$(jukebox-board png-diff /tmp/p1.ppm /tmp/p2.ppm)
echo "paused, 2 s apart: $still"
[ "$(echo "$still" | sed 's/.*differ=\([0-9]*\).*/\1/')" -eq 0 ] || { fail "the display changed while paused"; return; }

at=$(status elapsed)
jukebox screenshot /tmp/shot.png --config /nonexistent --track "$track" --at "$at" --state paused --mode once --volume 100 --size 320x240
cp /tmp/p2.ppm /out/screen-drm.ppm 2>/dev/null
same=$(jukebox-board png-diff /tmp/p2.ppm /tmp/shot.png)
echo "display against screenshot at $at s: $same"
[ "$(echo "$same" | sed 's/.*permille=\([0-9]*\).*/\1/')" -le 10 ] || { fail "the display differs from the screenshot in more than 1% of pixels: $same"; return; }
pass
