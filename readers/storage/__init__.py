"""What ReadLens keeps on disk, named for what it holds: extracted pages, renders and converted
PDFs by content hash (``files``), and descriptions and transcripts in TinyDB (``descriptions``)."""
