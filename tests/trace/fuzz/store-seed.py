#!/usr/bin/env python3
"""store-seed.py STORE OUT - a trace store as an input of
tests/trace/fuzz/fuzz_store.c: its nonzero bytes as patches on zeros
([32-bit gap][16-bit length][bytes], little-endian; runs of fewer than
16 zeros stay inside a patch)."""
import struct
import sys

data = open(sys.argv[1], "rb").read()
out, at, i = bytearray(), 0, 0
while i < len(data):
    if data[i] == 0:
        i += 1
        continue
    j = i
    while j < len(data) and j - i < 65535:
        if data[j] == 0 and data[j:j + 16] == bytes(min(16, len(data) - j)):
            break
        j += 1
    out += struct.pack("<IH", i - at, j - i) + data[i:j]
    at, i = j, j
open(sys.argv[2], "wb").write(out)
