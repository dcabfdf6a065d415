# Benchmark, not a test: the USB DAC is pulled 7 times (what fits in a scenario's 90 s)
# at a random moment while it plays, and plugged back. For each pull: how far from where
# the DAC stopped (the end of what QEMU received) playback went on, in frames (negative:
# heard again; unplug-usb allows -1824 to +240).
usb_present || { fail "no USB DAC"; return; }
pull=0 jumps=""
while [ $pull -lt 7 ]; do
    pull=$((pull + 1))
    mark=$(usb_mark)
    AUDIO="device = \"$USB_DAC\"" start_jukebox $FIX/long48 --exit-when-done
    usleep $((1500000 + $(od -An -N2 -tu2 /dev/urandom) * 30))  # 1.5 to 3.5 s in
    usb_unplug || { fail "the host did not unplug the DAC"; return; }
    t=0; while usb_present && [ $t -lt 30 ]; do usleep 100000; t=$((t + 1)); done
    usb_plug || { fail "the DAC did not come back"; return; }
    wait_jukebox || { fail "the jukebox did not finish"; return; }
    sleep 1
    usb_take "$mark" /tmp/spread.raw
    got=$(usb_segments /tmp/spread.raw $FIX/long48.ref)
    first=$(echo "$got" | sed -n 1p); second=$(echo "$got" | sed -n 2p)
    [ -n "$second" ] || { fail "pull $pull: not two stretches around the pull: $got"; return; }
    jump=$(( $(field ref "$second") - $(field ref "$first") - $(field frames "$first") ))
    echo "pull $pull: went on $jump frames from where the DAC stopped"
    jumps="$jumps $jump"
done
echo "$jumps" | tr ' ' '\n' | sort -n | awk 'NF { v[++n] = $1 } END { printf "%d pulls: %d to %d frames, median %d\n", n, v[1], v[n], v[int((n + 1) / 2)] }'
pass
