# Benchmark, not a test (run by bench/screen): the screen thread's CPU per second of
# playback on the framebuffer (vfb, 320x240 RGB565) with a lyric line filling, against the
# whole jukebox's CPU playing the same stretch with no screen, in the same guest; and the
# frames drawn while paused for 10 s.
mkdir -p /tmp/screen && cp $FIX/screen/* /tmp/screen/
seconds=${SCREEN_SECONDS:-18}
# Clock ticks (user + system) of the process, and of its screen thread.
ticks() { awk '{print $14 + $15}' "$1" 2>/dev/null || echo 0; }
screen_ticks() {
    for task in /proc/$JUKEBOX_PID/task/*; do
        [ "$(cat "$task/comm" 2>/dev/null)" = jukebox-screen ] && { ticks "$task/stat"; return; }
    done
    echo 0
}
frames() { sed -n 's/.*screen: \([0-9]*\) frames.*/\1/p' /tmp/jukebox.log | awk '{n += $1} END {print n + 0}'; }
# measure DISPLAY: sets $whole $screen $drawn: ticks of the process and of its screen
# thread, and frames, over $seconds of play from 2 s in (start-up is not playback). Not
# in a $(...): the jukebox it starts must stay this shell's child.
measure() {
    start_jukebox /tmp/screen --display "$1"
    sleep 2
    t0=$(ticks /proc/$JUKEBOX_PID/stat); s0=$(screen_ticks); f0=$(frames)
    sleep "$seconds"
    t1=$(ticks /proc/$JUKEBOX_PID/stat); s1=$(screen_ticks); f1=$(frames)
    whole=$((t1 - t0)) screen=$((s1 - s0)) drawn=$((f1 - f0))
}
measure /dev/fb0
with_screen=$screen with_drawn=$drawn
ctl pause 1 > /dev/null
sleep 1
p0=$(frames)
sleep 10
paused=$(( $(frames) - p0 ))
kill $JUKEBOX_PID; wait $JUKEBOX_PID 2>/dev/null; JUKEBOX_PID=""
measure none
player=$whole
kill $JUKEBOX_PID; wait $JUKEBOX_PID 2>/dev/null; JUKEBOX_PID=""
hz=100
screen=$with_screen drawn=$with_drawn
echo "SCREEN seconds=$seconds screen_ticks=$screen player_ticks_without_screen=$player hz=$hz frames=$drawn paused_frames=$paused"
awk -v s="$screen" -v p="$player" -v d="$seconds" -v f="$drawn" -v z="$paused" -v hz=$hz 'BEGIN {
    printf "screen thread: %.2f%% of a core; jukebox without a screen: %.2f%%; ratio %.2f; %.1f frames/s playing; %d frames in 10 s paused\n",
        100 * s / hz / d, 100 * p / hz / d, (p > 0 ? s / p : 0), f / d, z }'
pass
