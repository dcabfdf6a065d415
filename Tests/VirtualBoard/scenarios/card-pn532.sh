# The PN532 reader (PN532Reader, libnfc loaded on first use) on the guest's second UART,
# against the PN532 the host plays there (card-reader-host): a card placed, lifted, put
# back, another placed; each change reported in order with the card's UID. Then the
# reader goes silent (unplugged): the loss is logged once, and its return once.
# jukebox-board pn532 prints a line per change of what the reader reports. Then the same
# through the daemon's [[input.reader]] type = "pn532" and a cards file: the card placed
# plays its folder, lifted it pauses, put back it plays on from the same sample (the
# recording shows nothing skipped or repeated beyond the fades), another card switches.
OUT=/tmp/pn532.out ERR=/tmp/pn532.err
# count TEXT FILE: lines of FILE with TEXT.
count() { grep -c -- "$1" "$2"; }
# until_count TEXT N FILE: waits (15 s at most) until FILE has N lines with TEXT.
until_count() {
    t=0
    while [ "$(count "$1" "$3")" -lt "$2" ] && [ $t -lt 150 ]; do usleep 100000; t=$((t + 1)); done
    [ "$(count "$1" "$3")" -ge "$2" ] || { fail "no $2 × '$1' in $3 after 15 s"; return 1; }
}
step() { echo "-- $*"; host "$*" || fail "the host did not take '$*'"; }

step pn532
rm -f /tmp/pn532.stop
jukebox-board pn532 --connection pn532_uart:/dev/ttyS1 --seconds 80 --stop-file /tmp/pn532.stop > $OUT 2> $ERR &
watch=$!
until_count "absent" 1 $OUT
step pn532 04A22B1A
until_count "present 04A22B1A" 1 $OUT
step lift
until_count "absent" 2 $OUT
step pn532 04A22B1A
until_count "present 04A22B1A" 2 $OUT
step pn532 045F7EC2336180
until_count "present 045F7EC2336180" 1 $OUT
# Unplugged: the polls time out, the reader gives the device up and tries it again.
step silent
until_count "lost the PN532" 1 $ERR
sleep 3
step awake
until_count "answers again" 1 $ERR
step lift
until_count "absent" 3 $OUT
touch /tmp/pn532.stop
wait $watch

echo "---- reports"; cat $OUT
echo "---- reader log"; cat $ERR
echo "---- host's PN532 (unknown commands and all)"; grep -c "" /out/card-reader.log; grep -i "unknown\|bad" /out/card-reader.log

changes=$(grep -v '^polls' $OUT | cut -d' ' -f2- | tr '\n' ',')
[ "$changes" = "absent,present 04A22B1A,absent,present 04A22B1A,present 045F7EC2336180,absent," ] ||
    fail "reports out of order or wrong: $changes"
[ "$(count "lost the PN532" $ERR)" -eq 1 ] || fail "the loss was not logged exactly once"
[ "$(count "answers again" $ERR)" -eq 1 ] || fail "the return was not logged exactly once"
[ "$(grep -c "warning\|error" $ERR)" -eq 1 ] || fail "other warnings in the reader's log"
grep -q "UNKNOWN" /out/card-reader.log && fail "libnfc sent a command the emulated PN532 does not know"
grep -q '^polls' $OUT || fail "the reader did not stop"

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
