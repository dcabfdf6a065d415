#!/usr/bin/env bash
# Makes the scenarios' audio on the host with sox, flac and lame, and the references they
# are compared with (what flac -d and mpg123 -s decode). Usage: fixtures.sh DIR
set -euo pipefail
dir=$1
mkdir -p "$dir"/{plays,gapless,long,long48,bad,scan,book,m4b,opus,page}
cd "$dir"
# Music-like: plucked notes over a little noise, 44.1 kHz 16-bit stereo.
sox -n -r 44100 -b 16 -c 2 music.wav synth 3 pluck C3 pluck E4 synth 3 pinknoise mix gain -8 2>/dev/null
sox -n -r 44100 -b 16 -c 2 long.wav synth 6 pluck G3 pluck B4 synth 6 pinknoise mix gain -8 2>/dev/null
flac -s -f -o plays/1.flac music.wav
lame --quiet -V 2 music.wav plays/2.mp3
flac -s -d -c --force-raw-format --endian=little --sign=signed plays/1.flac > flac.ref
# Three tracks cut from one continuous signal at sample boundaries.
sox long.wav gapless/1.flac trim 0 70001s
sox long.wav gapless/2.flac trim 70001s 90000s
sox long.wav gapless/3.flac trim 160001s
sox long.wav -t raw gapless.ref
flac -s -f -o long/long.flac long.wav
sox long.wav -t raw long.ref
# The same signal as a book of three chapters (a CUE sheet in its tags): 0, 2 and 4 s.
flac -s -f -T TITLE=Book -o book/book.flac long.wav
metaflac --set-tag="CUESHEET=$(printf 'TRACK 01 AUDIO\nINDEX 01 00:00:00\nTRACK 02 AUDIO\nINDEX 01 00:02:00\nTRACK 03 AUDIO\nINDEX 01 00:04:00\n')" book/book.flac
# An audiobook in AAC with three chapters (ffmpeg writes both chapter kinds), and Opus.
printf ';FFMETADATA1\ntitle=Book\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=2000\ntitle=One\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=2000\nEND=4000\ntitle=Two\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=4000\nEND=6000\ntitle=Three\n' > chapters.txt
ffmpeg -v error -y -i long.wav -i chapters.txt -map_metadata 1 -map_chapters 1 -c:a aac -b:a 128k m4b/book.m4b
rm -f chapters.txt
# The USB DAC takes 48 kHz only (as many dongles do): the long signal at that rate.
sox -n -r 48000 -b 16 -c 2 long48.wav synth 6 pluck G3 pluck B4 synth 6 pinknoise mix gain -8 2>/dev/null
flac -s -f -o long48/long48.flac long48.wav
opusenc --quiet --bitrate 128 long48.wav opus/long48.opus
sox long48.wav -t raw long48.ref
# A 60 s track for holding fast-forward (a plain tone: small, and position is all that
# matters): 1.5 s held moves it about 16 s, from wherever a busy guest starts holding.
sox -n -r 44100 -b 16 -c 2 scan/scan.flac synth 60 sine 440 gain -12
# Two tracks the page tells apart by their titles, long enough to still play while a
# browser on the host starts.
for track in 1:Morning 2:Evening; do
    cp scan/scan.flac "page/${track%%:*}.flac" && metaflac --set-tag="TITLE=${track#*:}" "page/${track%%:*}.flac"
done
# Valid files among damaged ones.
cp plays/1.flac bad/1-good.flac
head -c 20000 plays/1.flac > bad/2-truncated.flac
head -c 50000 /dev/urandom > bad/3-garbage.mp3
: > bad/4-empty.flac
cp plays/2.mp3 bad/5-good.mp3
# The screen's track: the demo's first song, its LRC and the album cover.
"${JUKEBOX_BIN:?the release binary}" demo-library demo > /dev/null
mkdir -p screen && mv "demo/01 Twinkle Twinkle.flac" "demo/01 Twinkle Twinkle.lrc" demo/cover.png screen/ && rm -rf demo
rm -f music.wav long.wav long48.wav
