# The PN532 through the daemon's [[input.reader]] type = "pn532" (libnfc loaded when it
# starts), against the PN532 the host plays on the guest's second UART, with a cards file:
# the card placed plays its folder, lifted it pauses, put back it plays on from the same
# sample (the recording shows nothing skipped or repeated beyond the fades), another card
# switches. The reader's own reports are card-pn532.
step() { echo "-- $*"; host "$*" || fail "the host did not take '$*'"; }
# The daemon's reader: libnfc loaded when it starts, the card placed and lifted reported.
INPUT='[[input.reader]]
name = "nfc"
type = "pn532"
bus = "uart"
device = "/dev/ttyS1"'
mkdir -p /tmp/card-music/long /tmp/card-music/other
cp $FIX/long/long.flac /tmp/card-music/long/
cp $FIX/scan/scan.flac /tmp/card-music/other/
# The cards file beside the config (/tmp/jukebox.toml): [cards] file's default.
cat > /tmp/cards.toml <<'CARDS'
[card.04A22B1A]
name = "Long"
play = "long"
[card.045F7EC2336180]
name = "Other"
play = "other"
CARDS
# until_state STATE: waits (10 s at most) for the player's state.
until_state() {
    t=0; while [ "$(status state)" != "$1" ] && [ $t -lt 100 ]; do usleep 100000; t=$((t + 1)); done
    [ "$(status state)" = "$1" ] || { fail "the player did not $1: $(status state); $(tail -n 5 /tmp/jukebox.log)"; return 1; }
}
step pn532
record 40 /tmp/card.raw
start_jukebox /tmp/card-music
wait_for 'card reader "nfc": PN532 on pn532_uart:/dev/ttyS1' 15 || { fail "the daemon's PN532 did not open: $(tail -n 5 /tmp/jukebox.log)"; return; }
step pn532 04A22B1A
until_state play || return
sleep 2
step lift
until_state pause || return
sleep 1
step pn532 04A22B1A
until_state play || return
sleep 1
step pn532 045F7EC2336180
t=0; while ! ctl currentsong | grep -q 'other/scan.flac' && [ $t -lt 100 ]; do usleep 100000; t=$((t + 1)); done
ctl currentsong | grep -q 'other/scan.flac' || { fail "the other card did not switch: $(ctl currentsong | head -n 1)"; return; }
step lift
until_state pause || return
wait_record
grep 'input: card\|cards:' /tmp/jukebox.log
# The box plays its library from start-up, long.flac first, until the card is placed:
# the card's own music is the last two stretches.
got=$(music_segments /tmp/card.raw $FIX/long.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -ge 2 ] || { fail "expected the long card's music in two stretches around the lift: $got"; return; }
got=$(echo "$got" | tail -n 2)
first=$(echo "$got" | sed -n 1p); second=$(echo "$got" | sed -n 2p)
jump=$(( $(field ref "$second") - $(field ref "$first") - $(field frames "$first") ))
echo "put back, it played on $jump frames after the point it faded out from"
[ "$(field ref "$first")" -eq 0 ] || { fail "the card did not start its folder at the beginning: $first"; return; }
[ $jump -ge 0 ] && [ $jump -le 441 ] || { fail "played on $jump frames from the lift (0 to 441 allowed: the fade, 10 ms)"; return; }
pass
