"""Office files: what Word, PowerPoint and Excel documents hold, read from their own XML, on the
pages LibreOffice renders of them. Each LibreOffice conversion runs in a profile of its own, kept
from one conversion to the next so none starts cold, and its result is cached by content hash.
Charts and SmartArt are DrawingML in all three, read by one module, so a chart reads the same
wherever it stands.

- ``libreoffice``: conversions to PDF, and legacy and ODF files to their OOXML copy.
- ``drawings``: DrawingML charts ("Chart: title (kind chart)" over their data) and SmartArt.
- ``word``: Word's styles and numbering, the walker into Markdown blocks, and its pages.
- ``slides``: PowerPoint slides as Markdown.
- ``sheets``: Excel sheets as tables of what their cells show, with their charts.
"""
