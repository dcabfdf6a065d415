# The jukebox plays the 48 kHz track to the USB DAC (QEMU's usb-audio, a real USB Audio
# Class device driven by snd-usb-audio) with conversion off. `auto` takes the device's
# volume control; at volume 100 it is at 0 dB, so what the DAC received (written by QEMU
# on the host) is the reference, sample for sample. A 44.1 kHz track is refused with the
# formats the device offers.
usb_present || { fail "no USB DAC"; return; }
jukebox mixer --device hw:CARD=Audio
mark=$(usb_mark)
AUDIO="device = \"$USB_DAC\"" start_jukebox $FIX/long48 --exit-when-done
wait_jukebox || { fail "the jukebox did not finish: $(tail -n 3 /tmp/jukebox.log)"; return; }
grep -E "mixer:|output:" /tmp/jukebox.log
grep -q "mixer: '.*' on hw:CARD=Audio" /tmp/jukebox.log || { fail "auto did not take the DAC's control"; return; }
sleep 1
usb_take "$mark" /tmp/usb.raw
echo "the DAC received $(($(wc -c < /tmp/usb.raw) / 4)) frames"
got=$(usb_segments /tmp/usb.raw $FIX/long48.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 1 ] || { fail "not one unbroken stretch: $got"; return; }
[ "$(field ref "$got")" -eq 0 ] && [ "$(field frames "$got")" -eq 288000 ] && [ "$(field mismatched "$got")" -eq 0 ] ||
    { fail "not the reference, sample for sample: $got"; return; }
# 44.1 kHz to a 48 kHz-only device without conversion: refused, naming what it takes.
AUDIO="device = \"$USB_DAC\"" start_jukebox $FIX/long --exit-when-done
t=0; while [ "$(status state)" != stop ] && [ $t -lt 50 ]; do usleep 100000; t=$((t + 1)); done
ctl status | grep error
status error | grep -q "cannot play 44100 Hz, 2 ch, 16-bit (it offers 16-bit, 2 ch, 48000 Hz)" ||
    { fail "the refusal does not name the formats: $(status error)"; return; }
pass
