# An RDM6300 on the guest's second UART, played by the host (card-reader-host: a frame
# every 65 ms while a card is on), read by the daemon's [[input.reader]]: a card placed is
# reported present, lifted it is reported absent, a frame with a bad checksum is skipped
# with one line, garbage on the line breaks nothing, and another card is reported as
# itself; with a cards file, the first card plays its folder while it lies there and
# pauses when lifted, and the second switches to its own.
INPUT='[[input.reader]]
name = "lid"
type = "rdm6300"
device = "/dev/ttyS1"'
mkdir -p /tmp/card-music/long /tmp/card-music/other
cp $FIX/long/long.flac /tmp/card-music/long/
cp $FIX/scan/scan.flac /tmp/card-music/other/
cat > /tmp/cards.toml <<'CARDS'
[card.0F0037A9C1]
play = "long"
[card.0F0037A9C2]
play = "other"
CARDS
step() { echo "-- $*"; host "$*" || fail "the host did not take '$*'"; }
# sightings: the daemon's card lines, one per change (the reader reports every frame).
sightings() { sed -n 's/.*card: lid: //p' /tmp/jukebox.log | uniq | tr '\n' ','; }

step lift
start_jukebox /tmp/card-music
wait_for 'card reader "lid": reading /dev/ttyS1' || { fail "the reader did not open ttyS1: $(tail -n 5 /tmp/jukebox.log)"; return; }
step rdm6300 0F0037A9C1
wait_for 'card: lid: .*0F0037A9C1' 10 || { fail "the card was not reported: $(tail -n 5 /tmp/jukebox.log)"; return; }
t=0; while [ "$(status state)" != play ] && [ $t -lt 100 ]; do usleep 100000; t=$((t + 1)); done
[ "$(status state)" = play ] || { fail "the placed card did not play: $(status state)"; return; }
step badsum
step garbage
usleep 500000
step lift
wait_for 'card: lid: absent' 10 || { fail "the lifted card was not reported gone"; return; }
t=0; while [ "$(status state)" != pause ] && [ $t -lt 100 ]; do usleep 100000; t=$((t + 1)); done
[ "$(status state)" = pause ] || { fail "the lifted card did not pause: $(status state)"; return; }
step rdm6300 0F0037A9C2
wait_for 'card: lid: .*0F0037A9C2' 10 || { fail "the second card was not reported"; return; }
t=0; while ! ctl currentsong | grep -q 'other/scan.flac' && [ $t -lt 100 ]; do usleep 100000; t=$((t + 1)); done
ctl currentsong | grep -q 'other/scan.flac' || { fail "the second card did not switch: $(ctl currentsong | head -n 1)"; return; }
step lift
usleep 1500000
grep 'card' /tmp/jukebox.log | uniq -c
got=$(sightings)
echo "sightings: $got"
case "$got" in
    *"present(0F0037A9C1),absent,present(0F0037A9C2),absent,") ;;
    *) fail "sightings out of order or wrong: $got"; return ;;
esac
grep -q 'card reader "lid": .*on /dev/ttyS1; skipped' /tmp/jukebox.log || { fail "the bad frame was not reported"; return; }
running || { fail "the jukebox stopped"; return; }
pass
