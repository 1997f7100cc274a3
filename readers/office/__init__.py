"""Office files: what Word, PowerPoint and Excel documents hold, read from their own XML, on the
pages LibreOffice renders of them (``readers.render.libreoffice``). Charts and SmartArt are
DrawingML in all three, read by one module, so a chart reads the same wherever it stands.

- ``drawings``: DrawingML charts ("Chart: title (kind chart)" over their data) and SmartArt.
- ``word``: Word's styles and numbering, the walker into blocks, and its pages.
- ``slides``: PowerPoint slides as blocks, each with its shape's box.
- ``sheets``: Excel sheets as tables of what their cells show (``sheet_blocks``), with their charts
  and their comments (``sheet_comments``); ``numbers``: numbers and dates as a cell's number format
  shows them; ``shapes`` and ``sheet_figures``: where a deck's and a sheet's pictures, drawings and
  cells stand.
"""
