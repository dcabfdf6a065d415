# Cards through the socket's virtual reader (`jukebox ctl card UID`): a card plays its
# folder to the loopback card, sample for sample; then each card keeps its own place: a
# book card, another card, a power cut (SIGKILL), a restart, and the book card again
# carries on where it was switched away, as the recording shows. Last, an unknown card
# is linked to what is playing by holding a GPIO button (`long = "link-card"`): the cards
# file gets its block, comments kept.
mkdir -p /tmp/cardmusic/Long /tmp/cardmusic/Plays
cp $FIX/long/long.flac /tmp/cardmusic/Long/
cp $FIX/plays/1.flac /tmp/cardmusic/Plays/
# Beside the config start_jukebox writes (/tmp/jukebox.toml): the default cards file.
cat > /tmp/cards.toml <<'CARDS'
# The long book
[card.0A1B2C3D4E]
name = "Long"
play = "Long"
resume = true

[card.12345678]
name = "Plays"
play = "Plays"
CARDS
PLAYBACK='autoplay = false'

# The card plays its folder: the recording is the track's decode, whole.
record 30 /tmp/cards1.raw
start_jukebox /tmp/cardmusic --exit-when-done
wait_for "cards: /tmp/cards.toml: 2 cards" || { fail "the cards file was not read: $(head -n 5 /tmp/jukebox.log)"; return; }
ctl card 0a1b2c3d4e > /dev/null || { fail "card was refused"; return; }
wait_jukebox || { fail "the card's music did not play to the end: $(tail -n 5 /tmp/jukebox.log)"; return; }
wait_record
grep 'card Long' /tmp/jukebox.log
got=$(music_segments /tmp/cards1.raw $FIX/long.ref | sed 's/^segment start=[0-9]* //')
[ "$got" = "ref=0 frames=264600 mismatched=0" ] || { fail "not the track's decode, sample for sample: $got"; return; }
grep -q "input: card Long start heard .* ms after the edge" /tmp/jukebox.log || { fail "no latency line for the card"; return; }

# Each card's own place survives a power cut.
STATE='file = "/tmp/cards.state"
interval = 1'
rm -f /tmp/cards.state /tmp/cards.state.prev /tmp/cards.state.queue.m3u
record 40 /tmp/cards2.raw
start_jukebox /tmp/cardmusic
wait_for "cards: /tmp/cards.toml: 2 cards" || { fail "the cards file was not read (2nd run)"; return; }
ctl card 0A1B2C3D4E > /dev/null
t=0; while [ "$(status state)" != play ] && [ $t -lt 100 ]; do usleep 50000; t=$((t + 1)); done
sleep 3
ctl card 12345678 > /dev/null
wait_for "cards: Plays plays" || { fail "the second card did not play"; return; }
sleep 2
kill -9 "$JUKEBOX_PID"; wait "$JUKEBOX_PID" 2>/dev/null
cat /tmp/cards.state
grep -q 'card = "0A1B2C3D4E"' /tmp/cards.state || { fail "the book card's place is not in the state file"; return; }
start_jukebox /tmp/cardmusic
wait_for "cards: /tmp/cards.toml: 2 cards" || { fail "the cards file was not read (3rd run)"; return; }
ctl card 0A1B2C3D4E > /dev/null
wait_for "cards: Long plays Long (1 tracks, from track 1 at frame" || { fail "the book card did not resume: $(grep cards: /tmp/jukebox.log)"; return; }
t=0; while [ "$(status state)" != stop ] && [ $t -lt 200 ]; do usleep 50000; t=$((t + 1)); done
kill "$JUKEBOX_PID"; wait "$JUKEBOX_PID" 2>/dev/null
wait_record
got=$(music_segments /tmp/cards2.raw $FIX/long.ref)
echo "$got"
[ "$(echo "$got" | wc -l)" -eq 2 ] || { fail "expected the book in two stretches, before the switch and after the restart: $got"; return; }
first=$(echo "$got" | sed -n 1p) second=$(echo "$got" | sed -n 2p)
cut=$(( $(field ref "$first") + $(field frames "$first") ))
resumed=$(field ref "$second")
echo "last heard of the book before the switch: frame $cut; resumed at frame $resumed"
[ "$(field ref "$first")" -le 441 ] || { fail "the book did not start at the top"; return; }
[ $((cut - resumed)) -le 88200 ] || { fail "resumed more than 2 s before where it was left: $cut → $resumed"; return; }
[ "$resumed" -le $((cut + 441)) ] || { fail "resumed after where it was left, skipping: $cut → $resumed"; return; }
[ $((resumed + $(field frames "$second"))) -eq 264600 ] || { fail "the book did not play to its end after resuming"; return; }

# An unknown card, linked with the button to what plays.
lines_up 8
STATE='file = ""'
INPUT='[[input.button]]
name = "play"
line = 8
press = "play-pause"
long = "link-card"'
start_jukebox /tmp/cardmusic
wait_for 'button "play" on' || { fail "the button was not set up: $(tail -n 5 /tmp/jukebox.log)"; return; }
wait_for "cards: /tmp/cards.toml: 2 cards" || { fail "the cards file was not read (4th run)"; return; }
ctl clear > /dev/null && ctl add Plays > /dev/null && ctl play > /dev/null
ctl card FFFF > /dev/null
wait_for "card FFFF is not in /tmp/cards.toml" || { fail "the unknown card was not offered for linking"; return; }
gpio 8=0 +1200ms 8=1
wait_for "cards: card FFFF linked" || { fail "holding the button did not link the card: $(grep -E 'cards:|input:' /tmp/jukebox.log)"; return; }
cat /tmp/cards.toml
grep -q '^# The long book$' /tmp/cards.toml || { fail "the comments of the cards file were lost"; return; }
listed=$(jukebox cards list --file /tmp/cards.toml)
echo "$listed"
echo "$listed" | grep -q '^FFFF .* plays Plays$' || { fail "the linked card does not play the folder that played"; return; }
kill "$JUKEBOX_PID"; wait "$JUKEBOX_PID" 2>/dev/null
pass
