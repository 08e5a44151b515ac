"""User and operator control over a store: edit, delete, erase, export, import, runs, quarantine.

Every writer here holds the store's writer lock and records a ``runs`` row, like an ingest run.
"""
