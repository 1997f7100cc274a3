"""Word documents read from their own XML, on the pages LibreOffice renders: ``styles`` (paragraph
styles and list numbering), ``walker`` (the document in reading order into Markdown ``blocks``,
with ``inline`` walking each paragraph's runs) and ``pages`` (each block placed on the page
LibreOffice's PDF shows it on); ``readers/formats/docx.py`` puts them together."""
