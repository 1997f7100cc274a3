"""Images with Pillow: every frame of a TIFF is a page, a GIF is its first frame, metadata is text.

The PNG sent to a model is at most ``MAX_IMAGE_SIDE`` pixels on its long side; the original file
is left untouched for display.
"""

from __future__ import annotations

import struct
import warnings

from PIL import ExifTags, Image

from ..errors import ReaderError, described
from ..markup.blocks import paragraphs
from ..models import Extraction, Figure, Page
from ..notices import Code, Notice
from ..render.pdfium import encode_png
from ..storage.files import IMAGE

MAX_MEGAPIXELS = 100
STRIP_PIXELS = 4_000_000  # pixels of a large image reduced at a time (16 MB in RGBA)
# What Pillow raises on damaged pixels or frames: OSError mostly, and its format plugins' own parse errors.
DAMAGED = (OSError, SyntaxError, ValueError, EOFError, TypeError, IndexError, struct.error)
EXIF_FIELDS = {
    "Make": "Make",
    "Model": "Model",
    "DateTimeOriginal": "DateTimeOriginal",
    "DateTime": "DateTime",
    "Artist": "Author",
    "XPAuthor": "Author",
    "XPTitle": "Title",
    "ImageDescription": "Description",
    "XPComment": "Comment",
    "Copyright": "Copyright",
    "Software": "Software",
}
# How EXIF's Orientation asks a picture to be turned upright (as ``ImageOps.exif_transpose`` reads it).
UPRIGHT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
XMP_FIELDS = {"title": "Title", "description": "Description", "creator": "Author", "Author": "Author"}


def _xmp_text(value) -> str:
    """XMP values nest (rdf:Alt, rdf:Seq, rdf:li); flatten them to their text."""
    if isinstance(value, dict):
        if "text" in value:
            return str(value["text"])
        return "; ".join(filter(None, (_xmp_text(v) for k, v in value.items() if k not in ("lang", "about"))))
    if isinstance(value, list):
        return "; ".join(filter(None, (_xmp_text(v) for v in value)))
    return str(value).strip()


def _walk_xmp(node, found: dict) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in XMP_FIELDS and XMP_FIELDS[key] not in found:
                text = _xmp_text(value)
                if text:
                    found[XMP_FIELDS[key]] = text
            else:
                _walk_xmp(value, found)
    elif isinstance(node, list):
        for item in node:
            _walk_xmp(item, found)


def _decode(value) -> str:
    if isinstance(value, bytes):  # XP* tags are UTF-16, others may be ASCII bytes
        text = value.decode("utf-16-le" if len(value) % 2 == 0 and b"\x00" in value else "latin-1", errors="ignore")
        return text.rstrip("\x00").strip()
    return str(value).strip()


def frame_count(image: Image.Image) -> tuple[int, bool]:
    """How many frames can be reached, and whether a damaged frame stopped the count (the frames
    before it are still read). Pillow's ``n_frames`` fails outright at a damaged frame."""
    count, cut = 1, False
    try:
        while True:
            image.seek(count)
            count += 1
    except EOFError:  # past the last frame
        pass
    except DAMAGED:
        cut = True
    image.seek(0)
    return count, cut


def metadata(image: Image.Image, frames: int) -> dict[str, str]:
    """Size, format, frames and the EXIF/XMP fields a person would look for."""
    found: dict[str, str] = {"ImageSize": f"{image.width}x{image.height}", "Format": image.format or "unknown"}
    if frames > 1:
        found["Frames"] = str(frames)
    exif = image.getexif()
    tags = {**dict(exif), **dict(exif.get_ifd(ExifTags.IFD.Exif))}
    for tag, value in tags.items():
        label = EXIF_FIELDS.get(ExifTags.TAGS.get(tag, ""))
        text = _decode(value) if label else ""
        if text and label and label not in found:
            found[label] = text
    if "xmp" in image.info or "XML:com.adobe.xmp" in image.info:
        try:
            _walk_xmp(image.getxmp(), found)
        except Exception:  # noqa: BLE001 - broken XMP is metadata we do without, not a broken image
            pass
    return found


def _mode(image: Image.Image) -> str:
    """The mode the model's PNG is made in: the image's own when a PNG holds it as it is."""
    if image.mode in ("RGB", "RGBA", "L", "LA"):
        return image.mode
    if image.mode == "1":
        return "L"  # a bilevel scan: one byte a pixel, not three
    return "RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB"


def _reduced(image: Image.Image, factor: int, mode: str) -> Image.Image:
    """``image`` in ``mode``, reduced ``factor`` times (each pixel the mean of a block of pixels),
    strip by strip: a strip is the only full-width copy made, never the whole image in another mode."""
    width, height = image.size
    rows = max(factor, STRIP_PIXELS // width // factor * factor)
    reduced = Image.new(mode, (-(-width // factor), -(-height // factor)))
    for top in range(0, height, rows):
        strip = image.crop((0, top, width, min(height, top + rows)))
        reduced.paste((strip if strip.mode == mode else strip.convert(mode)).reduce(factor), (0, top // factor))
    return reduced


def model_png(image: Image.Image, max_side: int) -> bytes:
    """The frame as a PNG of at most ``max_side`` px on its long side, upright per EXIF, made with
    one decoded copy of the frame and what is already small: a JPEG is decoded already reduced
    (``draft``); anything larger is reduced strip by strip to no less than the size wanted, then
    scaled with Lanczos and turned upright. Turning and converting the whole frame first copied it
    (a 99-megapixel PNG of 388 KB took 1.28 GB)."""
    upright = UPRIGHT.get(image.getexif().get(ExifTags.Base.Orientation, 1))  # 1: upright already
    if image.format == "JPEG":
        image.draft(image.mode, (max_side, max_side))  # decoded at 1/2, 1/4 or 1/8 of its size, not below this
    mode, factor = _mode(image), max(image.size) // max_side  # reduced to no less than the size wanted
    frame = _reduced(image, factor, mode) if factor > 1 else image if image.mode == mode else image.convert(mode)
    if max(frame.size) > max_side:
        scale = max_side / max(image.size)
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        frame = frame.resize(size, Image.Resampling.LANCZOS)
    return encode_png(frame.transpose(upright) if upright else frame)


def _open(job) -> Image.Image:
    too_large = ReaderError(
        "FILE_TOO_LARGE",
        f"{job.name} is larger than {MAX_MEGAPIXELS} megapixels; images "
        "that large are refused to protect the server. Scale it down and upload it again.",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # our own limit below decides
        try:
            image = Image.open(job.path)
        except Image.DecompressionBombError:
            raise too_large from None
        except DAMAGED:  # Pillow's words name the file's path on this machine
            raise ReaderError(
                "CORRUPT_FILE", f"{job.name} is damaged or incomplete and cannot be opened as an image."
            ) from None
    if image.width * image.height > MAX_MEGAPIXELS * 1_000_000:
        image.close()
        raise too_large
    return image


def _damaged(job, error: Exception) -> ReaderError:
    return ReaderError(
        "CORRUPT_FILE", f"{job.name} is damaged or incomplete: its pixels could not be decoded ({described(error)})."
    )


def read(job):
    image = _open(job)
    side, notices = job.settings.max_image_side, []
    with image:
        try:
            frames, cut = frame_count(image)
            info = metadata(image, frames)
        except DAMAGED as error:
            raise _damaged(job, error) from None
        if cut:
            notices.append(
                Notice(
                    Code.DAMAGED,
                    f"{job.name} is damaged after its frame {frames}; the frames before the damage are read.",
                )
            )
        count = frames if image.format == "TIFF" else 1
        numbers = job.select(count, notices)
        pages, failed = [], None
        for number in numbers:
            page = Page(
                number=number,
                blocks=paragraphs("\n".join(f"{key}: {value}" for key, value in info.items()))
                if number == numbers[0]
                else [],
                figures=[Figure("picture", (0.0, 0.0, 1.0, 1.0))],
            )
            part = f"{number:04d}-{side}px"
            page.image = job.services.store.get_bytes(job.sha256, IMAGE, part)
            if page.image is None:
                try:
                    image.seek(number - 1)
                    if image.width * image.height > MAX_MEGAPIXELS * 1_000_000:  # each frame has a size of its own
                        page.error, page.figures = (
                            f"This frame is larger than {MAX_MEGAPIXELS} megapixels and was not read.",
                            [],
                        )
                        notices.append(
                            Notice(
                                Code.TOO_LARGE,
                                f"Frame {number} of {job.name} is larger than {MAX_MEGAPIXELS} megapixels and was not "
                                "read.",
                                number,
                            )
                        )
                        pages.append(page)
                        continue
                    page.image = model_png(image, side)
                except DAMAGED as error:  # a damaged frame costs that frame only
                    failed = failed or error
                    damage = f"is damaged and could not be decoded ({described(error)})"
                    page.error, page.figures = f"This frame {damage}.", []
                    notices.append(Notice(Code.DAMAGED, f"Frame {number} of {job.name} {damage}.", number))
                else:
                    job.services.store.put_bytes(job.sha256, IMAGE, page.image, part)
            pages.append(page)
    if failed is not None and not any(page.image for page in pages):
        raise _damaged(job, failed)
    return job.reading(Extraction(count, pages, notices=notices))
