"""Ingest: the one stage sequence from a session source to the store (:func:`run.run_ingest`).

``validate`` checks a batch with pandera and the id rule (bad sessions go to quarantine with
their reasons); ``stages`` pulls, selects what the ledger has not seen, extracts and embeds;
``commit`` consolidates and writes in a crash-safe order, ledger last.
"""
