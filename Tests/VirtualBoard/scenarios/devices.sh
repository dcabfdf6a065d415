# The board has what later scenarios build on: a simulated GPIO chip whose lines can be
# driven, the loopback card and a card with a mixer, a framebuffer, uinput, and unplug and
# replug of the loopback card through its driver.
sim=/sys/kernel/config/gpio-sim/box
chip=$(cat $sim/bank0/chip_name 2>/dev/null)
[ -n "$chip" ] && [ -c "/dev/$chip" ] || { fail "no simulated GPIO chip (chip_name: '$chip')"; return; }
lines=$(cat /sys/bus/gpio/devices/$chip/ngpio 2>/dev/null || cat /sys/class/gpio/*/ngpio 2>/dev/null | head -1)
line=$(ls -d /sys/devices/platform/gpio-sim.*/$chip/sim_gpio5 2>/dev/null | head -1)
[ -n "$line" ] || { fail "no sim_gpio5 under the simulated chip"; return; }
echo pull-down > $line/pull; low=$(cat $line/value)
echo pull-up > $line/pull; high=$(cat $line/value)
echo "GPIO: /dev/$chip, line 5 reads $low when pulled down and $high when pulled up"
[ "$low" = 0 ] && [ "$high" = 1 ] || { fail "GPIO line 5 does not follow its pull: $low/$high"; return; }
cat /proc/asound/cards
grep -q Loopback /proc/asound/cards || { fail "no Loopback card"; return; }
grep -q Dummy /proc/asound/cards || { fail "no Dummy card (the one with a mixer)"; return; }
[ -c /dev/fb0 ] || { fail "no framebuffer"; return; }
echo "framebuffer: $(cat /sys/class/graphics/fb0/virtual_size) at $(cat /sys/class/graphics/fb0/bits_per_pixel) bpp"
[ "$(cat /sys/class/graphics/fb0/virtual_size)" = "320,240" ] || { fail "framebuffer is not 320x240"; return; }
[ -c /dev/uinput ] || { fail "no /dev/uinput"; return; }
# Unplug and replug, as a USB DAC would be.
echo snd_aloop.0 > /sys/bus/platform/drivers/snd_aloop/unbind
grep -q Loopback /proc/asound/cards && { fail "the loopback card did not go away on unbind"; return; }
echo snd_aloop.0 > /sys/bus/platform/drivers/snd_aloop/bind
usleep 200000
grep -q Loopback /proc/asound/cards || { fail "the loopback card did not come back on bind"; return; }
echo "unplug and replug of the loopback card: ok"
pass
