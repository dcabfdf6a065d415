# The PN532 reader (PN532Reader, libnfc loaded on first use) on the guest's second UART,
# against the PN532 the host plays there (card-reader-host): a card placed, lifted, put
# back, another placed; each change reported in order with the card's UID. Then the
# reader goes silent (unplugged): the loss is logged once, and its return once.
# jukebox-board pn532 prints a line per change of what the reader reports. The same
# through the daemon is card-pn532-play (each has a scenario's 90 s of its own).
OUT=/tmp/pn532.out ERR=/tmp/pn532.err
# count TEXT FILE: lines of FILE with TEXT (0 before jukebox-board has made FILE).
count() { n=$(grep -c -- "$1" "$2" 2>/dev/null); echo "${n:-0}"; }
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
pass
