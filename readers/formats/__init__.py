"""One module per format, each with one ``read(job) -> Reading``; ``core`` imports the one a file needs."""
