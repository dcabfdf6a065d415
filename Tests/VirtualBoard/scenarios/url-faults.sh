# A FLAC by its URL over a bad link: netem on the guest's loopback delays every packet
# 20 ms and drops 1% (each way, so a 40 ms round trip and 2% loss), between busybox httpd
# and the jukebox. TCP retransmits, the download waits and carries on, the control socket
# answers throughout, and what is heard is still the track: every recorded stretch matches
# flac -d's output, and all of it is there.
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
modprobe sch_netem || { fail "no sch_netem module"; return; }
busybox httpd -f -p 127.0.0.1:8081 -h $FIX/plays &
HTTPD_PID=$!
faults_done() { iproute-tc qdisc del dev lo root 2>/dev/null; kill $HTTPD_PID 2>/dev/null; wait $HTTPD_PID 2>/dev/null; }
t=0; while ! wget -q -O /dev/null http://127.0.0.1:8081/1.flac 2>/dev/null && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
iproute-tc qdisc add dev lo root netem delay 20ms loss 1% || { fail "tc netem refused"; faults_done; return; }
record 40 /tmp/faults.raw
PLAYBACK='autoplay = false' start_jukebox $FIX/plays --exit-when-done
ctl clear > /dev/null
ctl add http://127.0.0.1:8081/1.flac > /dev/null || { fail "add URL refused"; faults_done; return; }
ctl play > /dev/null
# The track is 3 s and the jukebox exits when it ends: a ping counts only before that
# (on a loaded host the fifth may come after the end).
ended() { grep -q "the queue ended" /tmp/jukebox.log; }
asked=0 answered=0
for i in 1 2 3 4 5; do
    usleep 300000
    ended && break
    asked=$((asked + 1))
    if ctl ping > /dev/null 2>&1; then answered=$((answered + 1)); elif ended; then asked=$((asked - 1)); fi
done
wait_jukebox 60 || { fail "the jukebox did not finish over the bad link: $(tail -n 3 /tmp/jukebox.log)"; faults_done; return; }
wait_record
faults_done
[ "$asked" -gt 0 ] && [ "$answered" = "$asked" ] || { fail "the control socket answered $answered of $asked pings"; return; }
grep -q "playing 1/1: 1.flac" /tmp/jukebox.log || { fail "the URL was not played: $(tail -n 5 /tmp/jukebox.log)"; return; }
segments /tmp/faults.raw $FIX/flac.ref
got=$(music_segments /tmp/faults.raw $FIX/flac.ref)
echo "$got"
frames=$(echo "$got" | awk '{ f = $4; sub(/frames=/, "", f); n += f } END { print n + 0 }')
echo "$got" | grep -qv 'mismatched=0$' && { fail "a recorded stretch is not the track: $got"; return; }
[ "$frames" = 132300 ] || { fail "not all of the track was heard ($frames of 132300 frames): $got"; return; }
pass
