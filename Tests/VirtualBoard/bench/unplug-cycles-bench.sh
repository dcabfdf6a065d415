# Benchmark, not a test (bench/unplug): the loopback card the jukebox plays to is unbound
# and bound again ${CYCLES:-100} times while it plays (a logical unplug, as a USB DAC's).
# Prints the median and worst time from unplug to the paused state and from replug to
# playing, whether each resume went on from its pause point, and the daemon's RSS growth.
PLAYBACK='mode = "repeat-all"'
start_jukebox $FIX/long
aloop=/sys/bus/platform/drivers/snd_aloop
jukebox-board unplug-cycles --socket $CTL --pid "$JUKEBOX_PID" --cycles "${CYCLES:-100}" --play "${PLAY:-0.3}" \
    --unplug "echo snd_aloop.0 > $aloop/unbind" --plug "echo snd_aloop.0 > $aloop/bind" ||
    { fail "unplug cycles failed"; return; }
running || { fail "the jukebox died"; return; }
grep -c "output: lost" /tmp/jukebox.log
pass
