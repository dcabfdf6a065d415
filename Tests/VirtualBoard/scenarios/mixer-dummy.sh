# The volume moves a card's own control: snd-dummy's Master (-45 to 0 dB: wider than
# 24 dB, so the cube-root curve), while the audio goes to the loopback. Set over the
# socket, the control takes the dB the mapping promises; moved by another program, the
# status follows; max_volume holds against the socket, steps and outside changes.
jukebox mixer --device hw:Dummy
PLAYBACK='max_volume = 80
start_volume = 50' AUDIO='device = "hw:Loopback,0,0"
mixer = "Master"
mixer_device = "hw:Dummy"' start_jukebox $FIX/long
wait_for "mixer: 'Master' on hw:Dummy" || { fail "the Dummy's Master was not taken: $(grep mixer /tmp/jukebox.log)"; return; }
grep "mixer:" /tmp/jukebox.log
db() { jukebox mixer --device hw:Dummy | sed -n "s/^'Master' on .*, now \(-*[0-9.]*\) dB.*/\1/p"; }
for v in 50 20 70; do
    ctl setvol $v > /dev/null
    usleep 200000
    got=$(db)
    echo "setvol $v: Master at $got dB"
    [ "$(status volume)" = "$v" ] || { fail "status says $(status volume) after setvol $v"; return; }
    eval "at$v=$got"
done
# What the mapping promises on a -45..0 dB control (cube-root curve, floor at -45 dB):
# 60·log10(f + v·(1 − f)) with f = 10^(−45/60). Busybox awk has no logarithms, so the
# figures are written out: within 0.5 dB, as the control moves in 0.45 dB steps.
for pair in "20 -27.94" "50 -13.80" "70 -7.38"; do
    set -- $pair
    eval "got=\$at$1"
    awk -v got="$got" -v want="$2" 'BEGIN { d = got - want; if (d < 0) d = -d; exit !(d <= 0.5) }' ||
        { fail "volume $1 gave $got dB, the mapping says $2 dB"; return; }
done
# Outside: another program moves the control; the status follows.
ctl setvol 70 > /dev/null
jukebox mixer --device hw:Dummy --control Master --set 30
t=0; while [ "$(status volume)" = 70 ] && [ $t -lt 30 ]; do usleep 100000; t=$((t + 1)); done
echo "after the outside change: volume $(status volume)"
v=$(status volume)
[ "$v" -ge 27 ] && [ "$v" -le 33 ] || { fail "the outside change to 30 shows as $v"; return; }
# How soon: the kernel announces each change and the jukebox listens (the issue asks for
# 100 ms; printed, not judged, as the guest is emulated).
jukebox-board outside-volume --socket $CTL --device hw:Dummy --control Master --volumes 40 --volumes 60 --times 10 ||
    { fail "an outside change did not reach the status"; return; }
# max_volume 80 holds against the socket and against steps.
ctl setvol 100 > /dev/null
[ "$(status volume)" = 80 ] || { fail "setvol 100 gave $(status volume) with max_volume 80"; return; }
ctl volume +10 > /dev/null
[ "$(status volume)" = 80 ] || { fail "volume +10 gave $(status volume) with max_volume 80"; return; }
# An outside change above max_volume is brought back to it.
jukebox mixer --device hw:Dummy --control Master --set 100
t=0; while [ "$(status volume)" != 80 ] && [ $t -lt 30 ]; do usleep 100000; t=$((t + 1)); done
usleep 300000
[ "$(status volume)" = 80 ] || { fail "an outside 100 left the volume at $(status volume)"; return; }
echo "Master after being brought back: $(db) dB"
pass
