# Rotary encoders, one for each detent setting (4, 2 and 1 transitions per click), all on
# volume with a step of 1. Each turns twenty clicks clockwise, with bounce inside every
# click, then ten back: the volume moves exactly +20 and -10.
lines_up 10 11 12 13 14 15
PLAYBACK='start_volume = 30
volume_step = 1'
INPUT='[[input.encoder]]
name = "four"
a = 10
b = 11
transitions_per_detent = 4
[[input.encoder]]
name = "two"
a = 12
b = 13
transitions_per_detent = 2
[[input.encoder]]
name = "one"
a = 14
b = 15
transitions_per_detent = 1'
start_jukebox $FIX/long
wait_for 'encoder "one" on' || { fail "the encoders were not set up: $(tail -n 5 /tmp/jukebox.log)"; return; }
# step LINE LEVEL: one Gray transition, with a bounce (there and back) before it settles;
# appended to $steps, without forking.
step() { steps="$steps $1=$2 +200us $1=$((1 - $2)) +200us $1=$2 +4ms"; }
# turn A B TRANSITIONS cw|ccw: the knob moves through the Gray cycle of pulled levels
# (phase 0: A up, B up; 1: A down; 2: both down; 3: B down). Clockwise, A leads.
turn() {
    a=$1; b=$2; count=$3; dir=$4
    steps=""
    i=0
    while [ $i -lt $count ]; do
        if [ $dir = cw ]; then
            case $knob in 0) step $a 0 ;; 1) step $b 0 ;; 2) step $a 1 ;; 3) step $b 1 ;; esac
            knob=$(( (knob + 1) % 4 ))
        else
            case $knob in 0) step $b 0 ;; 3) step $a 0 ;; 2) step $b 1 ;; 1) step $a 1 ;; esac
            knob=$(( (knob + 3) % 4 ))
        fi
        i=$((i + 1))
    done
    gpio $steps
}
check() {
    usleep 300000
    v=$(status volume)
    echo "$1: volume $v"
    [ "$v" = "$2" ] || { fail "$1: volume $v, expected $2"; return 1; }
}
knob=0
turn 10 11 80 cw; check "4 per click, 20 clockwise" 50 || return
turn 10 11 40 ccw; check "4 per click, 10 back" 40 || return
turn 12 13 40 cw; check "2 per click, 20 clockwise" 60 || return
turn 12 13 20 ccw; check "2 per click, 10 back" 50 || return
turn 14 15 20 cw; check "1 per click, 20 clockwise" 70 || return
turn 14 15 10 ccw; check "1 per click, 10 back" 60 || return
# With 2 and 4 transitions per click only complete sequences count, so no bounce makes a
# step; the unit reads the lines at each edge, so an edge the guest's kernel delivers late
# (each line has its own irq thread) is put back in its place. With 1 per click the
# debounce (2 ms) keeps bounce out when it is that short; a guest stall can stretch it
# into a step back and forth, which leaves the volume (checked above) exact.
up=$(actions | grep -v '"one"' | grep -c 'turn+'); down=$(actions | grep -v '"one"' | grep -c 'turn-')
echo "4 and 2 per click: $up steps up, $down down"
[ "$up" -eq 40 ] && [ "$down" -eq 20 ] || { fail "expected 40 steps up and 20 down from the 4 and 2 per click encoders, not $up and $down"; return; }
pass
