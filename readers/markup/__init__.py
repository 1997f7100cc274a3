"""Text and its markup, shared by the readers: decoding (``text``), HTML to Markdown (``html``),
Markdown pieces (``markdown``), tables (``tables``) and a chart's data as a table (``charts``)."""
