"""The HTTP way in: REST and JSON-RPC over the store, and the memory management page at ``/ui``.

Every route calls the functions the CLI calls (``tasks.control``, ``tasks.consolidate.history``,
``tasks.recall``, ``tasks.sources``); nothing here writes a table its own way. ``app.create_app``
builds the FastAPI app; ``flows/cli_api.py`` serves it (``memory-pipeline api``).
"""
