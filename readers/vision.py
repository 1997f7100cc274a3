"""Descriptions of each page's visual content for text-only models (issue 3)."""

from __future__ import annotations

from .settings import Settings


def provider_for(settings: Settings) -> str:
    """``openai``, ``ocr`` or ``none``: ``auto`` means the API when a base URL or key is set, else OCR."""
    if settings.vision_provider == "auto":
        return "openai" if settings.vision_base_url or settings.vision_api_key else "ocr"
    return settings.vision_provider


def build_vision(settings: Settings):
    """The describer for these settings, or ``None`` when descriptions are turned off."""
    return None


def describe_reading(reading, job) -> None:
    """Fill each page's ``description`` (or ``error``) and ``reading.usage``; never raises for one page."""
    if job.services.vision is None:
        return
