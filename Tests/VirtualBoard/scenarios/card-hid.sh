# A USB card reader (a uinput device that types like the real ones): the number it types
# and Enter reach the daemon's cards as a read; its device is grabbed, so a key bound to
# KEY_1 for any device does not fire while it types '1's (a keypad's KEY_1 still does);
# garbage and endless digits are dropped with one line each and the box keeps playing.
PLAYBACK='mode = "repeat-all"'
INPUT='[[input.reader]]
name = "box"
type = "hid"
device = "jukebox card reader"
[[input.key]]
name = "one"
code = "KEY_1"
press = "next"'
mkdir -p /tmp/card-music
cp $FIX/scan/scan.flac /tmp/card-music/1.flac
cp $FIX/scan/scan.flac /tmp/card-music/2.flac

# typed TEXT: the steps that type TEXT (digits, letters; "/" is Enter), 4 ms a key.
typed() {
    for c in $(echo "$1" | sed 's/./& /g'); do
        case $c in /) k=KEY_ENTER ;; *) k=KEY_$c ;; esac
        echo "$k=1 +2ms $k=0 +2ms"
    done
}

start_jukebox /tmp/card-music
ctl play > /dev/null
wait_for 'no input device "jukebox card reader" yet' || { fail "the missing reader was not reported: $(tail -n 5 /tmp/jukebox.log)"; return; }
endless=$(typed 1111111111111111111111111111111111111111111111111111111111111111)
jukebox-board uinput --name "jukebox card reader" --settle-ms 1500 --linger-ms 500 \
    $(typed 0012345671/) +1500ms $(typed 12X3/) +1500ms $endless +1500ms $(typed 9/) +1500ms $(typed 0012345671/) &
reader=$!
wait_for 'card reader "box": "jukebox card reader" (/dev/input/event.*), grabbed' 15 || { fail "the reader was not grabbed when it appeared: $(tail -n 5 /tmp/jukebox.log)"; return; }
wait_for 'card: box: .*0012345671' 10 || { fail "the typed number was not reported: $(tail -n 5 /tmp/jukebox.log)"; return; }
wait $reader
usleep 500000
grep 'card' /tmp/jukebox.log
reads=$(grep -c 'card: box: .*0012345671' /tmp/jukebox.log)
[ "$reads" = 2 ] || { fail "the number typed twice was reported $reads times"; return; }
grep -q 'card reader "box": typed KEY_X, which is not part of a card number; what it typed is dropped' /tmp/jukebox.log || { fail "garbage was not reported"; return; }
grep -q 'card reader "box": typed more than 32 characters without Enter' /tmp/jukebox.log || { fail "endless digits were not reported"; return; }
dropped=$(grep -c 'what it typed is dropped' /tmp/jukebox.log)
[ "$dropped" = 2 ] || { fail "one line per bad burst expected, got $dropped"; return; }
grep -q 'card: box: .*9)' /tmp/jukebox.log || { fail "the short number after the endless digits was not read"; return; }
grep -q 'card reader "box": "jukebox card reader" (/dev/input/event.*) went away' /tmp/jukebox.log || { fail "the reader going away was not noticed"; return; }
if actions | grep -q '"one"'; then fail "the key for KEY_1 fired while the reader typed: $(actions)"; return; fi
[ "$(status state)" = play ] || { fail "the box stopped playing: $(status state)"; return; }

# The key itself works: a keypad's KEY_1 plays the next song.
jukebox-board uinput --name "jukebox keypad" --settle-ms 1000 --linger-ms 300 KEY_1=1 +50ms KEY_1=0
wait_for 'key "one" press → next' 5 || { fail "a keypad's KEY_1 did not fire the key: $(tail -n 5 /tmp/jukebox.log)"; return; }
actions
pass
