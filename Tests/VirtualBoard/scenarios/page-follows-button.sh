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
ip link set lo up
t=0; while [ ! -e /sys/class/net/eth0 ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
ip addr show dev eth0 2>/dev/null | grep -q 'inet 10\.0\.2\.15/' ||
why=$({ ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0; } 2>&1) ||
    { fail "no network for the page: $why; $(ip addr 2>&1 | tr '\n' ' ')"; return; }
lines_up 6
INPUT='[[input.button]]
line = 6
press = "next"
[web]
address = "0.0.0.0"
port = 8080'
start_jukebox $FIX/page
wait_for 'web: the page is on' || { fail "the page was not served: $(tail -n 5 /tmp/jukebox.log)"; return; }
wait_for 'playing 1/2' || { fail "the first track did not play: $(tail -n 5 /tmp/jukebox.log)"; return; }
# Where a slow run lost its time: a second follower of the page's feed, in the guest,
# notes the guest's clock (/proc/uptime, 10 ms steps; the log's edges are on the same
# clock) when the feed first says the next title. No forks per line: read is built in.
rm -f /tmp/feed.fifo /tmp/feed.evening && mkfifo /tmp/feed.fifo
wget -q -O /tmp/feed.fifo http://127.0.0.1:8080/api/events 2>/dev/null &
FEED_PID=$!
while read -r line; do
    case $line in *'"Evening"'*) read -r up _ < /proc/uptime; echo "$up" > /tmp/feed.evening; break ;; esac
done < /tmp/feed.fifo &
feed_done() { kill $FEED_PID 2>/dev/null; wait $FEED_PID 2>/dev/null; }
# Chromium starts in seconds on an idle host, many more beside two emulated guests.
host "page-open Morning Evening" 90 || { fail "the browser on the host: $HOST_ANSWER"; feed_done; return; }
grep -q 'playing 2/2' /tmp/jukebox.log && { fail "the first track ended before the browser was ready"; feed_done; return; }
echo pressed > /out/host/page-press
gpio 6=0 +60ms 6=1
host page-result 20 || { fail "the browser on the host: $HOST_ANSWER"; feed_done; return; }
delay=${HOST_ANSWER#ok }
feed_done
wait_for 'playing 2/2' 5 || { fail "the press did not move to the next track: $(tail -n 5 /tmp/jukebox.log)"; return; }
# The box's own parts, in the guest: the edge to the next track playing, and to the feed.
box=$(sed -n 's/.*button "next" start heard \([0-9.]*\) ms after the edge.*/\1/p' /tmp/jukebox.log)
edge=$(sed -n 's/.*button "next" press → next, edge at \([0-9.]*\) s.*/\1/p' /tmp/jukebox.log)
fed=$(awk -v e="$edge" '{ printf "%.0f", ($1 - e) * 1000 }' /tmp/feed.evening 2>/dev/null)
said="$delay ms; in the box, after the edge: next track playing ${box:-?} ms, in the feed ${fed:-?} ms"
echo "the page showed the next title $said"
[ "$delay" -lt 1000 ] || { fail "the page showed the next title $said; 1000 ms at most"; return; }
pass "$said"
