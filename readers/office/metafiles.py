"""The bitmap inside an EMF picture that is one bitmap, which Pillow can open where the EMF it cannot.

Pillow draws EMF and WMF pictures only on Windows. Office saves a picture pasted or inserted as a
metafile as an EMF whose drawing is one device-independent bitmap stretched over its frame (an
``EMR_STRETCHDIBITS`` record, [MS-EMF] 2.3.1.7): that bitmap is the picture, and is taken out here
as a BMP file (or as the JPEG or PNG a bitmap may hold). An EMF that draws anything more than a
bitmap over its frame (lines, shapes, text) stays unread: its bitmap alone would not be the picture.
"""

from __future__ import annotations

import struct

EMR_HEADER = 1
EMR_STRETCHDIBITS = 81
EMF_SIGNATURE = b" EMF"  # dSignature, at byte 40 of the header record
STRETCHDIBITS_SIZE = 80  # bytes of an EMR_STRETCHDIBITS record before its bitmap's header and bits
BI_JPEG, BI_PNG = 4, 5  # biCompression: the bits are a JPEG or PNG file
BMP_HEADER = 14  # bytes of a BMP file's header before the bitmap's own header
COVERED = 0.9  # share of the picture's frame its bitmap covers to stand for the picture: a border
# or a background the EMF draws around a pasted bitmap is then left out; a bitmap inside a drawing is not taken


def _area(blob: bytes, offset: int) -> int:
    """The area of the inclusive rectangle (left, top, right, bottom) at ``offset``, in device units."""
    left, top, right, bottom = struct.unpack_from("<4i", blob, offset)
    return max(right - left + 1, 0) * max(bottom - top + 1, 0)


def emf_bitmap(blob: bytes) -> bytes | None:
    """The bitmap an EMF picture is (see the module's docstring) as a BMP, JPEG or PNG file; None
    when ``blob`` is not an EMF, or is damaged, or draws more than one bitmap over its frame."""
    if len(blob) < 88 or struct.unpack_from("<I", blob)[0] != EMR_HEADER or blob[40:44] != EMF_SIGNATURE:
        return None
    frame, found, offset = _area(blob, 8), None, 0
    while offset + 8 <= len(blob):
        kind, size = struct.unpack_from("<II", blob, offset)
        if size < 8 or offset + size > len(blob):
            return None  # a damaged record: what the picture draws cannot be told
        if kind == EMR_STRETCHDIBITS and size >= STRETCHDIBITS_SIZE:
            if found is not None:
                return None  # two bitmaps: a drawing of them, not one picture
            found = offset
        offset += size
    if found is None or frame == 0 or _area(blob, found + 8) < COVERED * frame:
        return None
    header, header_size, bits, bits_size = struct.unpack_from("<4I", blob, found + 48)
    info = blob[found + header : found + header + header_size]
    pixels = blob[found + bits : found + bits + bits_size]
    if len(info) < 20 or len(info) != header_size or len(pixels) != bits_size:
        return None
    if struct.unpack_from("<I", info, 16)[0] in (BI_JPEG, BI_PNG):
        return pixels
    start = BMP_HEADER + header_size
    return b"BM" + struct.pack("<IHHI", start + bits_size, 0, 0, start) + info + pixels
