# `auto` takes the USB DAC's own volume control, and the level of what the DAC received
# (recorded by QEMU on the host) follows the volume: the drop from volume 100 to 50
# matches, within 0.5 dB, the gain the device applies for the dB its control was set to.
# (QEMU's emulated DAC applies its control linearly in amplitude rather than in dB: see
# `jukebox-board qemu-usb-gain`; on a real DAC the control's dB is the attenuation.)
usb_present || { fail "no USB DAC"; return; }
level_at() { # VOLUME: plays the track at that volume; prints "dB-of-control level"
    mark=$(usb_mark)
    PLAYBACK="start_volume = $1" AUDIO="device = \"$USB_DAC\"" start_jukebox $FIX/long48 --exit-when-done
    usleep 500000
    control=$(jukebox mixer --device hw:CARD=Audio | sed -n "s/.*, now \(-*[0-9.]*\) dB.*auto.*/\1/p")
    wait_jukebox || { echo "the jukebox did not finish"; return 1; }
    sleep 1
    usb_take "$mark" /tmp/level.raw
    echo "$control $(jukebox-board level --file /tmp/level.raw)"
}
set -- $(level_at 100); full_control=$1 full=$2
set -- $(level_at 50); half_control=$1 half=$2
grep "mixer:" /tmp/jukebox.log
echo "volume 100: control $full_control dB, level $full dBFS; volume 50: control $half_control dB, level $half dBFS"
[ -n "$full" ] && [ -n "$half" ] && [ -n "$half_control" ] || { fail "no figures"; return; }
full_gain=$(jukebox-board qemu-usb-gain --decibels="$full_control")
half_gain=$(jukebox-board qemu-usb-gain --decibels="$half_control")
awk -v f="$full" -v h="$half" -v fg="$full_gain" -v hg="$half_gain" 'BEGIN {
    d = (f - h) - (fg - hg); if (d < 0) d = -d
    printf "the level fell %.2f dB; the device gain for those settings fell %.2f dB\n", f - h, fg - hg
    exit !(d <= 0.5 && h < f) }' || { fail "the level does not follow the control"; return; }
pass
