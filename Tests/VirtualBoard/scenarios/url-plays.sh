# A FLAC on a web server inside the guest (busybox httpd, on the guest's own loopback)
# plays by its URL, queued as a client would (add URL): the download goes through
# libcurl and the same decoder, and the recording from hw:Loopback,1,0 must be flac -d's
# output, sample for sample, as one unbroken stretch.
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
busybox httpd -f -p 127.0.0.1:8080 -h $FIX/plays &
HTTPD_PID=$!
url_done() { kill $HTTPD_PID 2>/dev/null; wait $HTTPD_PID 2>/dev/null; }
t=0; while ! wget -q -O /dev/null http://127.0.0.1:8080/1.flac 2>/dev/null && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
record 30 /tmp/url.raw
# The library's own tracks make way for the URL: a client's queue of one.
PLAYBACK='autoplay = false' start_jukebox $FIX/plays --exit-when-done
ctl clear > /dev/null
ctl add http://127.0.0.1:8080/1.flac > /dev/null || { fail "add URL refused"; url_done; return; }
ctl play > /dev/null
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; url_done; return; }
wait_record
url_done
grep -q "playing 1/1: 1.flac" /tmp/jukebox.log || { fail "the URL was not played: $(tail -n 5 /tmp/jukebox.log)"; return; }
segments /tmp/url.raw $FIX/flac.ref
got=$(music_segments /tmp/url.raw $FIX/flac.ref | sed 's/^segment start=[0-9]* //')
[ "$got" = "ref=0 frames=132300 mismatched=0" ] || { fail "not the reference, sample for sample: $got"; return; }
stale_ok /tmp/url.raw $FIX/flac.ref || { fail "unexplained audio in the recording"; return; }
pass
