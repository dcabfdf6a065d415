# Benchmark, not a test (run by bench/input-latency): a button on a simulated GPIO line
# pressed 100 times, 250 ms apart; the jukebox logs, for each, how long after the kernel's
# edge timestamp the pause or resume was heard. Prints median and maximum.
lines_up 5
INPUT='[[input.button]]
line = 5
press = "play-pause"'
mkdir -p /tmp/latency-music
cp $FIX/scan/scan.flac /tmp/latency-music/1.flac
cp $FIX/scan/scan.flac /tmp/latency-music/2.flac
PLAYBACK='mode = "repeat-all"'
start_jukebox /tmp/latency-music
wait_for 'button "play-pause" on' || { fail "the button was not set up"; return; }
sleep 1
steps=""
i=0
while [ $i -lt 100 ]; do steps="$steps 5=0 +60ms 5=1 +190ms"; i=$((i + 1)); done
gpio $steps
sleep 1
grep -c 'press → play-pause' /tmp/jukebox.log
grep -E '(pause|resume) heard' /tmp/jukebox.log | sed 's/.* heard \([0-9.]*\) ms after the edge (input \([0-9.]*\) ms, output \([0-9.]*\) ms).*/\1 \2 \3/' > /tmp/latency
n=$(wc -l < /tmp/latency)
stats() { cut -d' ' -f"$1" /tmp/latency | sort -g | awk '{a[NR] = $1} END { printf "%.2f %.2f", a[int((NR + 1) / 2)], a[NR] }'; }
echo "LATENCY presses=$n total=$(stats 1) input=$(stats 2) output=$(stats 3)"
[ "$n" -ge 90 ] || { fail "only $n presses were measured"; return; }
pass
