"""Store: the Lance tables (declared once in :mod:`tasks.rows`), safe filters, indexes and layout.

``schema`` derives Arrow schemas and migrates old tables; ``tables`` opens and writes them;
``filters`` builds SQL ``where`` clauses from validated values only; ``indexes`` and ``layout``
keep reads fast (scalar, full-text and ANN indexes; tables clustered by app and user).
"""
