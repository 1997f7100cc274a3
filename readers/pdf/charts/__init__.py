"""Charts rebuilt from a PDF page's drawing (``reading.read_chart``): the data of bar, line, area,
pie and scatter charts drawn as vector marks, read against their axes and legend, so a text-only
model receives the chart as a table. ``reading`` is the entry; ``kinds``, ``axes`` and ``parts``
are what it reads with."""
