# The page follows a button: a phone's browser (headless Chromium on the host, through
# QEMU's forward of a host port to the guest's 8080) shows the playing track's title within
# 1 s of a "next" pressed on a simulated GPIO line. What is timed is the rendered page's
# #title element, not the event feed: page-host notes the browser's clock when the new
# title appears, and the host's clock when the guest's marker reaches the 9p share. The
# marker is written just before the press, so the delay measured is never shorter than
# the real one.

# QEMU's user network: the guest is 10.0.2.15, where the host's port is forwarded. Set
# up once per guest (a run again after an underrun finds it done).
modprobe virtio_net
t=0; while [ ! -e /sys/class/net/eth0 ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
ip addr show dev eth0 2>/dev/null | grep -q 'inet 10\.0\.2\.15/' ||
why=$({ ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0; } 2>&1) ||
    { fail "no network for the page: $why; $(ip addr 2>&1 | tr '\n' ' ')"; return; }
lines_up 6
pull=$(echo /sys/devices/platform/gpio-sim.*/gpiochip*/sim_gpio6/pull)
[ -w "$pull" ] || { fail "no simulated line 6 to press ($pull)"; return; }
INPUT='[[input.button]]
line = 6
press = "next"
[web]
address = "0.0.0.0"
port = 8080'
start_jukebox $FIX/page
wait_for 'web: the page is on' || { fail "the page was not served: $(tail -n 5 /tmp/jukebox.log)"; return; }
wait_for 'playing 1/2' || { fail "the first track did not play: $(tail -n 5 /tmp/jukebox.log)"; return; }
# Chromium starts in seconds on an idle host, many more beside two emulated guests.
host "page-open Morning Evening" 90 || { fail "the browser on the host: $HOST_ANSWER"; return; }
grep -q 'playing 2/2' /tmp/jukebox.log && { fail "the first track ended before the browser was ready"; return; }
# The press is the shell's own write to the simulator, right after the marker's: starting
# jukebox-board (a large binary, under emulation) between the two would count as the box's.
echo pressed > /out/host/page-press; echo pull-down > "$pull"
usleep 60000; echo pull-up > "$pull"
host page-result 20 || { fail "the browser on the host: $HOST_ANSWER"; return; }
delay=${HOST_ANSWER#ok }
wait_for 'playing 2/2' 5 || { fail "the press did not move to the next track: $(tail -n 5 /tmp/jukebox.log)"; return; }
# For a slow run, the box's own part (its log, the guest's clock): the edge to the sound.
box=$(sed -n 's/.*button "next" start heard \([0-9.]*\) ms after the edge.*/\1/p' /tmp/jukebox.log)
said="$delay ms (the next track sounded ${box:-?} ms after the edge)"
echo "the page showed the next title $said"
[ "$delay" -lt 1000 ] || { fail "the page showed the next title $said; 1000 ms at most"; return; }
pass "$said"
