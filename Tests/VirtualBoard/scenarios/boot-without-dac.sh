# The box starts with the USB DAC unplugged: it starts anyway and says it is waiting for
# it, with the socket working. Plugged in, it plays (from the start of the track) within
# a second or so; the time is printed, not judged (emulation is slow).
usb_present || { fail "no USB DAC"; return; }
usb_unplug || { fail "the host did not unplug the DAC"; return; }
t=0; while usb_present && [ $t -lt 30 ]; do usleep 100000; t=$((t + 1)); done
mark=$(usb_mark)
AUDIO="device = \"$USB_DAC\"" start_jukebox $FIX/long48 --exit-when-done
wait_for "waiting for" 10 || { fail "it did not say it waits: $(tail -n 3 /tmp/jukebox.log)"; return; }
t=0; while [ "$(status error)" != "waiting for $USB_DAC" ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
ctl status
[ "$(status error)" = "waiting for $USB_DAC" ] || { fail "the status does not say it waits: $(status error)"; return; }
ctl status | grep -q "^output: waiting for $USB_DAC" || { fail "the route is not 'waiting for'"; return; }
before=$(cut -d' ' -f1 /proc/uptime)
usb_plug || { fail "the DAC did not come back"; return; }
t=0; while [ "$(status state)" != play ] && [ $t -lt 100 ]; do usleep 50000; t=$((t + 1)); done
after=$(cut -d' ' -f1 /proc/uptime)
[ "$(status state)" = play ] || { fail "did not play once the DAC was there: $(status state) $(status error)"; return; }
echo "from asking the host to plug it in to playing: $(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.2f", b - a }') s (includes enumeration and status polling)"
wait_jukebox || { fail "the jukebox did not finish"; return; }
sleep 1
usb_take "$mark" /tmp/boot.raw
got=$(usb_segments /tmp/boot.raw $FIX/long48.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 1 ] && [ "$(field ref "$got")" -le 240 ] && [ "$(( $(field ref "$got") + $(field frames "$got") ))" -eq 288000 ] ||
    { fail "not the whole track from its start: $got"; return; }
pass
