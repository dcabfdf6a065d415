# Benchmark, not a test (run by bench/cards): cards placed and lifted on an RDM6300 that the
# host plays on the guest's serial port (place mode), then cards swiped on a USB reader
# made with uinput. The jukebox logs, for each, how long after the reader's report (the
# frame read, the kernel's key event) its first sound or its pause was written to the
# loopback card. Prints median and maximum of each.
INPUT='[[input.reader]]
name = "lid"
type = "rdm6300"
device = "/dev/ttyS1"
[[input.reader]]
name = "usb"
type = "hid"
device = "jukebox card reader"'
mkdir -p /tmp/latency-cards/cat /tmp/latency-cards/dog
cp $FIX/long/long.flac /tmp/latency-cards/cat/
cp $FIX/scan/scan.flac /tmp/latency-cards/dog/
cat > /tmp/cards.toml <<'CARDS'
[card.0F0037A9C1]
name = "cat"
play = "cat"
resume = true
[card.0F0037A9C2]
name = "dog"
play = "dog"
resume = true
[card.1001]
name = "cat"
play = "cat"
[card.1002]
name = "dog"
play = "dog"
CARDS
host lift > /dev/null
start_jukebox /tmp/latency-cards
wait_for 'card reader "lid": reading /dev/ttyS1' || { fail "the reader did not open ttyS1"; return; }
sleep 1
# Five of each card; the host's answer takes a few tenths of a second of its own, and a
# scenario has 90 s.
i=0
while [ $i -lt 5 ]; do
    for uid in 0F0037A9C1 0F0037A9C2; do
        host "rdm6300 $uid" > /dev/null; usleep 1200000
        host lift > /dev/null; usleep 800000
    done
    i=$((i + 1))
done
typed() {
    for c in $(echo "$1" | sed 's/./& /g'); do
        case $c in /) k=KEY_ENTER ;; *) k=KEY_$c ;; esac
        echo "$k=1 +2ms $k=0 +2ms"
    done
}
steps=""
i=0
while [ $i -lt 6 ]; do steps="$steps $(typed 1001/) +1200ms $(typed 1002/) +1200ms"; i=$((i + 1)); done
jukebox-board uinput --name "jukebox card reader" --settle-ms 1500 --linger-ms 500 $steps
usleep 500000
heard() { sed 's/.* heard \([0-9.]*\) ms after the edge.*/\1/' | sort -g | awk '{a[NR] = $1} END { if (NR) printf "%d %.1f %.1f", NR, a[int((NR + 1) / 2)], a[NR]; else printf "0 - -" }'; }
placed=$(grep -E 'input: card (cat|dog) (start|resume) heard' /tmp/jukebox.log | head -n 10 | heard)
lifted=$(grep -E 'input: card (cat|dog) pause heard' /tmp/jukebox.log | heard)
swiped=$(grep -E 'input: card (cat|dog) (start|resume) heard' /tmp/jukebox.log | tail -n +11 | heard)
say() { set -- $1; echo "n=$1 median $2 ms, max $3 ms"; }
echo "CARDLATENCY rdm6300 placed → first sound: $(say "$placed"); lifted → paused: $(say "$lifted"); usb reader swiped → first sound: $(say "$swiped")"
[ "${placed%% *}" -ge 8 ] && [ "${lifted%% *}" -ge 8 ] && [ "${swiped%% *}" -ge 8 ] || { fail "too few placements measured: $placed / $lifted"; return; }
pass
