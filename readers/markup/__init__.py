"""Text and its markup, shared by the readers: decoding (``text``), HTML to Markdown (``html``),
Markdown pieces (``markdown``) and tables (``tables``), a web page printed by Chromium
(``browser``), and one placement of a document's blocks on the pages of its render (``placement``,
for Word and web pages)."""
