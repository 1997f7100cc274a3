"""What the model receives from a ``Reading``, the flow's last step: the text a text-only model
gets (``text``), the provider's message parts (``messages``), the pages sent as one PDF
(``document``), tokens counted offline (``tokens``), the chunks a retriever indexes (``chunks``, cut
by ``blocks`` and packed by ``packing``), where a piece comes from in words (``citations``),
answers within a token budget (``budget``), a reading's outline (``outline``), finding a query in it
(``search``), and JSON values (``serialize``).

``Reading``'s four public methods (``as_text``, ``as_messages``, ``tokens``, ``chunks``) hand off
to these functions; nothing here imports ``readers.models`` but ``serialize``, which ``Reading``
does not use, so the model stays data and the payload stays below it.
"""
