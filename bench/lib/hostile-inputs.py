#!/usr/bin/env python3
"""Makes bench/hostile's inputs (JPEGs come from cjpeg; this only bends them).

    hostile-inputs.py claim IN OUT WIDTH HEIGHT   OUT: the JPEG IN with its frame header (SOF)
                                                   claiming WIDTH x HEIGHT; the data stays tiny
    hostile-inputs.py scans IN OUT N              OUT: the progressive JPEG IN with its last scan
                                                   repeated until it has N scans (a repeated
                                                   first scan of a band is a valid progression)
    hostile-inputs.py png OUT WIDTH HEIGHT        OUT: a one-colour RGB PNG (deflate packs it
                                                   about 1,000 to 1)
    hostile-inputs.py library DIR TRACKS          DIR: TRACKS one-sample WAV files, 100 a folder
                                                   (each its own inode: the scanner lists a file
                                                   once by device and inode, so links would not do)
    hostile-inputs.py playlist OUT PREFIX LINES   OUT: an M3U of LINES entries, the library's files
                                                   each after PREFIX (the way from OUT's folder)
"""
import os, struct, sys, zlib


def segments(data):
    """(marker, start, end) of each marker segment, a scan's entropy-coded data included."""
    i, out = 2, []
    while i < len(data):
        assert data[i] == 0xFF, f"no marker at {i}"
        marker = data[i + 1]
        if marker == 0xD9:
            out.append((marker, i, i + 2))
            break
        end = i + 2 + int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xDA:  # the scan's data runs to the next marker that is not a stuffed byte or a restart
            while not (data[end] == 0xFF and data[end + 1] != 0x00 and not 0xD0 <= data[end + 1] <= 0xD7):
                end += 1
        out.append((marker, i, end))
        i = end
    return out


def claim(src, dst, width, height):
    data = bytearray(open(src, "rb").read())
    for marker, start, _ in segments(data):
        if marker in (0xC0, 0xC1, 0xC2):
            data[start + 5:start + 9] = struct.pack(">HH", height, width)
    open(dst, "wb").write(data)


def scans(src, dst, count):
    data = open(src, "rb").read()
    segs = segments(data)
    sos = [k for k, s in enumerate(segs) if s[0] == 0xDA]
    # The last scan with the tables defined just before it.
    first = sos[-1]
    while first > 0 and segs[first - 1][0] == 0xC4:
        first -= 1
    last_scan = data[segs[first][1]:segs[sos[-1]][2]]
    eoi = segs[-1][1]
    open(dst, "wb").write(data[:eoi] + last_scan * (count - len(sos)) + data[eoi:])


def png(dst, width, height):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    row = b"\0" + bytes([40, 90, 160]) * width
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    open(dst, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                          + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def wav_bytes():
    samples = struct.pack("<hh", 0, 0)  # one stereo frame
    fmt = struct.pack("<HHIIHH", 1, 2, 44100, 44100 * 4, 4, 16)
    return (b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(samples)) + b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
            + b"data" + struct.pack("<I", len(samples)) + samples)


def library(folder, tracks):
    wav = wav_bytes()
    for n in range(tracks):
        sub = os.path.join(folder, f"Folder {n // 100:04d}")
        if n % 100 == 0:
            os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"Track {n % 100:02d}.wav"), "wb") as f:
            f.write(wav)


def playlist(dst, prefix, lines):
    with open(dst, "w") as f:
        for n in range(lines):
            f.write(f"{prefix}Folder {(n % 100_000) // 100:04d}/Track {n % 100:02d}.wav\n")


what, args = sys.argv[1], sys.argv[2:]
if what == "claim":
    claim(args[0], args[1], int(args[2]), int(args[3]))
elif what == "scans":
    scans(args[0], args[1], int(args[2]))
elif what == "png":
    png(args[0], int(args[1]), int(args[2]))
elif what == "library":
    library(args[0], int(args[1]))
elif what == "playlist":
    playlist(args[0], args[1], int(args[2]))
else:
    sys.exit(__doc__)
