#!/usr/bin/env python3
"""Writes face-gps.jpg: face.jpg with an EXIF block holding a camera name and a GPS position,
for the test that the photos a build writes carry no metadata. Run from this folder.

face.jpg, face.png, face.gif and face.webp are a 40x30 gradient made with libvips:
  vips xyz xy.v 40 30; vips extract_band xy.v x.v 0; vips extract_band xy.v y.v 1
  vips linear x.v r.v 6 0 --uchar; vips linear y.v g.v 8 0 --uchar
  vips bandjoin "r.v g.v r.v" rgb.v; vips cast rgb.v rgb8.v uchar
  vips jpegsave rgb8.v face.jpg --strip --Q 80; vips pngsave rgb8.v face.png --strip
  vips gifsave rgb8.v face.gif; vips webpsave rgb8.v face.webp --strip --Q 60
"""
import struct

def entry(tag, kind, count, value):
    return struct.pack(">HHI", tag, kind, count) + value

def tiff():
    make = b"RolodeckTestCam\0"
    # Layout: header (8), IFD0 at 8 (2 entries), Make text, GPS IFD, rationals.
    ifd0_size = 2 + 2 * 12 + 4
    make_at = 8 + ifd0_size
    gps_at = make_at + len(make)
    gps_size = 2 + 4 * 12 + 4
    latitude_at = gps_at + gps_size
    longitude_at = latitude_at + 24
    ifd0 = struct.pack(">H", 2)
    ifd0 += entry(0x010F, 2, len(make), struct.pack(">I", make_at))
    ifd0 += entry(0x8825, 4, 1, struct.pack(">I", gps_at))
    ifd0 += struct.pack(">I", 0)
    gps = struct.pack(">H", 4)
    gps += entry(0x0001, 2, 2, b"N\0\0\0")
    gps += entry(0x0002, 5, 3, struct.pack(">I", latitude_at))
    gps += entry(0x0003, 2, 2, b"E\0\0\0")
    gps += entry(0x0004, 5, 3, struct.pack(">I", longitude_at))
    gps += struct.pack(">I", 0)
    latitude = struct.pack(">6I", 52, 1, 31, 1, 1234, 100)
    longitude = struct.pack(">6I", 13, 1, 24, 1, 5678, 100)
    return b"MM\0\x2a" + struct.pack(">I", 8) + ifd0 + make + gps + latitude + longitude

payload = b"Exif\0\0" + tiff()
app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
jpeg = open("face.jpg", "rb").read()
assert jpeg[:2] == b"\xff\xd8"
open("face-gps.jpg", "wb").write(jpeg[:2] + app1 + jpeg[2:])
