#!/usr/bin/env python3
"""png_colours.py SHOT.png #RRGGBB... : how many pixels of a screenshot
have each colour (each channel within 24 of it: a line's core pixels, not
its blended edges).  Prints "#RRGGBB N" per colour.  Reads the 8-bit RGB
or RGBA, non-interlaced PNG that Chromium's --screenshot writes, with zlib
alone (no imaging library needed)."""
import struct
import sys
import zlib

TOLERANCE = 24


def pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(f'{path}: not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f'{path}: depth {depth}, colour type {colour}, interlace {interlace}: not read here')
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, rows, k = bytearray(stride), [], 0
    for _ in range(h):
        ftype, line = raw[k], bytearray(raw[k + 1:k + 1 + stride])
        k += 1 + stride
        for i in range(stride):      # undo the row's filter (PNG spec, 9.2)
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    for line in rows:
        for i in range(0, stride, bpp):
            yield line[i], line[i + 1], line[i + 2]


def main():
    want = [(c, tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))) for c in sys.argv[2:]]
    count = {c: 0 for c, _ in want}
    for px in pixels(sys.argv[1]):
        for c, rgb in want:
            if all(abs(px[j] - rgb[j]) <= TOLERANCE for j in range(3)):
                count[c] += 1
    for c, _ in want:
        print(c, count[c])


if __name__ == '__main__':
    main()
