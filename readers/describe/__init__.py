"""What models that cannot see (or hear) are told: each page's visuals described by a vision model
or local OCR (``vision``, ``ocr``, ``prompts``), and audio transcribed (``transcribe``)."""
