"""Reading a collection (``python -m readers batch``): records, outputs and resume, engines, the
run loop (see ``run``)."""
