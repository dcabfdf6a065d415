# Input configuration problems. A line claimed twice is refused at start, naming the file,
# the line and both users. Problems only the hardware can show are logged with their
# place in the file while the rest of the box plays on: a line a driver holds (an I2S DAC,
# here a hog on a second simulated chip), an offset the chip does not have, and a chip
# that is not there yet, which is picked up when it appears.
cat > /tmp/clash.toml <<CONF
[[input.button]]
line = 17
press = "next"

[[input.encoder]]
a = 22
b = 17
CONF
jukebox run --state "" --config /tmp/clash.toml --music-dir $FIX/long --socket /tmp/clash.sock > /tmp/clash.log 2>&1
code=$?
cat /tmp/clash.log
[ $code -eq 2 ] || { fail "a clashing configuration was not refused (exit $code)"; return; }
grep -q '^/tmp/clash.toml:7:1: encoder "volume" (line b) is on gpiochip0 line 17, which button "next" already uses (/tmp/clash.toml:2)' /tmp/clash.log ||
    { fail "the refusal does not name the file, line and both users"; return; }

sim=/sys/kernel/config/gpio-sim
mkdir -p $sim/dac/bank0/line2/hog
echo 4 > $sim/dac/bank0/num_lines
echo dac-chip > $sim/dac/bank0/label
echo i2s-dac > $sim/dac/bank0/line2/hog/name
echo input > $sim/dac/bank0/line2/hog/direction
echo 1 > $sim/dac/live || { fail "could not make the chip with a hogged line"; return; }
lines_up 20
INPUT='[input]
reserved_lines = []
[[input.button]]
name = "held by the dac"
chip = "dac-chip"
line = 2
press = "next"
[[input.button]]
name = "beyond the chip"
line = 40
press = "next"
[[input.button]]
name = "late"
chip = "late-chip"
line = 0
press = "play-pause"
[[input.button]]
name = "fine"
line = 20
press = "volume-down"'
# Round and round: a slow guest takes longer than the 6 s track to get to the late chip.
PLAYBACK='mode = "repeat-all"'
start_jukebox $FIX/long
wait_for 'button "fine" on' || { fail "the good button was not set up: $(tail -n 5 /tmp/jukebox.log)"; return; }
grep 'input' /tmp/jukebox.log
grep -q 'jukebox.toml:[0-9]*: button "held by the dac": .* line 2 is already used by "i2s-dac"' /tmp/jukebox.log || { fail "the line held by a driver was not reported with its place and user"; return; }
grep -q 'jukebox.toml:[0-9]*: button "beyond the chip": gpiochip0 has 32 lines (0 to 31), so there is no line 40' /tmp/jukebox.log || { fail "the missing offset was not reported"; return; }
[ "$(grep -c 'no GPIO chip "late-chip" yet' /tmp/jukebox.log)" -eq 1 ] || { fail "the missing chip was not reported once"; return; }
[ "$(status state)" = play ] || { fail "the box is not playing: $(status state)"; return; }
gpio 20=0 +50ms 20=1
usleep 300000
[ "$(status volume)" = 95 ] || { fail "the good button did not work"; return; }
sleep 2
[ "$(grep -c 'no GPIO chip "late-chip" yet' /tmp/jukebox.log)" -eq 1 ] || { fail "the missing chip was reported more than once"; return; }
mkdir -p $sim/late/bank0
echo 4 > $sim/late/bank0/num_lines
echo late-chip > $sim/late/bank0/label
echo 1 > $sim/late/live
late=$(cat $sim/late/bank0/chip_name)
wait_for 'button "late" on' 5 || { fail "the chip that appeared later was not picked up"; return; }
before=$(status state)
gpio --chip $late 0=0 +50ms 0=1
usleep 300000
after=$(status state)
[ "$after" != "$before" ] && [ "$after" != stop ] || { fail "the button on the late chip did not work: $before, then $after"; return; }
echo 0 > $sim/late/live; rmdir $sim/late/bank0 $sim/late
pass
