# Prints a PNG's IHDR size and the RGB colour at each X,Y given: "W H" then "R G B" lines.
# A small decoder (8-bit RGB/RGBA, non-interlaced: what Chromium writes), so the test reads
# the picture without an image library.
import struct
import sys
import zlib

data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit('not a PNG')
pos, idat, hdr = 8, b'', None
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        hdr = struct.unpack('>IIBBBBB', body)
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = hdr
print(w, h)
points = [tuple(int(v) for v in p.split(',')) for p in sys.argv[2:]]
if not points:
    sys.exit(0)
if depth != 8 or ctype not in (2, 6) or interlace:
    sys.exit('unsupported PNG: depth %d colour type %d' % (depth, ctype))
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
last = max(y for _, y in points)
prev = bytearray(stride)
rows = []
for y in range(last + 1):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + ((a + b) >> 1)) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
for x, y in points:
    print(*rows[y][x * bpp:x * bpp + 3])
