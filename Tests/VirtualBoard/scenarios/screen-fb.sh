# The screen on a real framebuffer (vfb: 320x240, RGB565), read back from /dev/fb0: the
# frame equals `jukebox screenshot` of the same moment, the clock moves while playing,
# each lyric line is drawn at its LRC time, nothing is redrawn while paused, and the
# console goes back to text mode when the jukebox stops.
track="/tmp/screen/01 Twinkle Twinkle.flac"
mkdir -p /tmp/screen && cp $FIX/screen/* /tmp/screen/
[ "$(jukebox-board console-mode)" = text ] || { fail "the console is not in text mode before the jukebox starts"; return; }
start_jukebox /tmp/screen --display /dev/fb0
wait_for "screen: drawing on /dev/fb0" 10 || { fail "the screen did not open /dev/fb0: $(grep screen: /tmp/jukebox.log)"; return; }
grep "screen: drawing" /tmp/jukebox.log
[ "$(jukebox-board console-mode)" = graphics ] || { fail "the console was not put in graphics mode"; return; }

# Lines 1 and 2 of the lyrics (line 0 starts with the track, before the screen has
# looked the lyrics up), each drawn within 100 ms of its time in the LRC.
wait_for "screen: lyric line 2 drawn" 20 || { fail "lyric line 2 was never drawn: $(grep 'lyric line' /tmp/jukebox.log)"; return; }
for n in 1 2; do
    drawn=$(sed -n "s/.*screen: lyric line $n drawn at \([0-9]*\) ms.*/\1/p" /tmp/jukebox.log | head -n 1)
    stamp=$(sed -n "$((n + 1))p" "/tmp/screen/01 Twinkle Twinkle.lrc" | tr -d '\r' | sed -n 's/^\[\([0-9]*\):\([0-9.]*\)\].*/\1 \2/p')
    want=$(echo "$stamp" | awk '{ printf "%d", ($1 * 60 + $2) * 1000 + 0.5 }')
    echo "lyric line $n: drawn at $drawn ms, LRC time $want ms"
    [ -n "$drawn" ] && [ -n "$want" ] || { fail "no time for lyric line $n (drawn '$drawn', LRC '$want')"; return; }
    late=$((drawn - want))
    [ $late -ge -100 ] && [ $late -le 100 ] || { fail "lyric line $n drawn $late ms from its LRC time"; return; }
done

# Playing: the clock, the bar and the fill move.
jukebox-board fb-grab --out /tmp/a.png > /dev/null
sleep 1.2
jukebox-board fb-grab --out /tmp/b.png > /dev/null
moving=$(jukebox-board png-diff /tmp/a.png /tmp/b.png)
echo "playing, 1.2 s apart: $moving"
[ "$(echo "$moving" | sed 's/.*differ=\([0-9]*\).*/\1/')" -gt 0 ] || { fail "nothing moved on the screen while playing"; return; }

# Paused: one frame for the pause, then nothing, for 3 s.
ctl pause 1 > /dev/null
sleep 1
frames_before=$(grep -c "screen: .* frames" /tmp/jukebox.log)
jukebox-board fb-grab --out /tmp/p1.png > /dev/null
sleep 3
jukebox-board fb-grab --out /tmp/p2.png > /dev/null
frames_after=$(grep -c "screen: .* frames" /tmp/jukebox.log)
still=$(jukebox-board png-diff /tmp/p1.png /tmp/p2.png)
echo "paused, 3 s apart: $still; frame reports $frames_before then $frames_after"
[ "$(echo "$still" | sed 's/.*differ=\([0-9]*\).*/\1/')" -eq 0 ] || { fail "the screen changed while paused"; return; }
[ "$frames_after" -eq "$frames_before" ] || { fail "frames were drawn while paused: $(grep 'screen: .* frames' /tmp/jukebox.log | tail -n 2)"; return; }

# What the panel shows is what `jukebox screenshot` draws for the same moment.
at=$(status elapsed)
jukebox screenshot /tmp/shot.png --config /nonexistent --track "$track" --at "$at" --state paused --mode once --volume 100 --size 320x240
cp /tmp/p2.png /out/screen-fb.png 2>/dev/null; cp /tmp/shot.png /out/screen-shot.png 2>/dev/null
same=$(jukebox-board png-diff /tmp/p2.png /tmp/shot.png --format rgb565)
echo "panel against screenshot at $at s: $same"
[ "$(echo "$same" | sed 's/.*permille=\([0-9]*\).*/\1/')" -le 10 ] || { fail "the panel differs from the screenshot in more than 1% of pixels: $same"; return; }

kill $JUKEBOX_PID; wait $JUKEBOX_PID 2>/dev/null; JUKEBOX_PID=""
mode=$(jukebox-board console-mode)
echo "console after the stop: $mode"
[ "$mode" = text ] || { fail "the console was left in $mode mode"; return; }
pass
