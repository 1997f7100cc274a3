"""ReadLens where retrieval systems are built: ``langchain`` (``ReadLensLoader``, a LangChain document
loader; ``pip install "readlens[langchain]"``) and ``llamaindex`` (``ReadLensReader``, a LlamaIndex
reader; ``pip install "readlens[llamaindex]"``), both made of what ``documents`` reads.

This package sits at the top of ``readers``: it uses the public surface (``read_file``,
``Reading.chunks``, the payload, the batch walker) and nothing in ``readers`` imports it. Importing
it imports neither framework; each module imports its own.
"""
