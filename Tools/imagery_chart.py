#!/usr/bin/env python3
"""Writes a survey-chart PNG to drape as imagery: checkers of 0.01 degree, bold lines every
0.05 degree, and red rings around given points, so a render shows whether imagery, terrain
and markers line up. Standard library only; the output is deterministic.

    imagery_chart.py OUT.png WEST SOUTH EAST NORTH WIDTH HEIGHT [LAT,LON ...]
"""
import math, struct, sys, zlib

def chart(west, south, east, north, width, height, rings):
    rows = []
    for y in range(height):
        lat = north - (y + 0.5) / height * (north - south)
        row = bytearray()
        for x in range(width):
            lon = west + (x + 0.5) / width * (east - west)
            i, j = math.floor(lon / 0.01), math.floor(lat / 0.01)
            c = (242, 230, 200) if (i + j) % 2 == 0 else (168, 198, 159)
            # Bold lines on every 0.05 degree, about 3 pixels wide.
            px_lon = (east - west) / width * 1.5
            px_lat = (north - south) / height * 1.5
            if abs(lon / 0.05 - round(lon / 0.05)) * 0.05 < px_lon or abs(lat / 0.05 - round(lat / 0.05)) * 0.05 < px_lat:
                c = (59, 74, 90)
            for (rlat, rlon) in rings:
                # Ring of 0.004 degree radius in ground terms (longitude scaled by cos lat).
                d = math.hypot((lon - rlon) * math.cos(math.radians(rlat)), lat - rlat)
                if abs(d - 0.004) < px_lat * 1.2:
                    c = (214, 40, 40)
            row += bytes(c) + b"\xff"
        rows.append(b"\x00" + bytes(row))
    raw = b"".join(rows)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

if __name__ == "__main__":
    out, w, s, e, n, width, height = sys.argv[1], *map(float, sys.argv[2:6]), *map(int, sys.argv[6:8])
    rings = [tuple(map(float, p.split(","))) for p in sys.argv[8:]]
    with open(out, "wb") as f:
        f.write(chart(w, s, e, n, width, height, rings))
