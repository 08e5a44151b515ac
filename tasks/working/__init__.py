"""Working memory for an agent run's action results (seed 001, "a fourth channel").

Every tool result is stored under an id; the conversation carries it in full once and a compacted
citation afterwards, and the agent takes back the full item, an excerpt, a summary or a part on
demand. Items persist per run in the ``working_items`` table (scoped by app, user and run) with an
in-process cache; sub-agents get a snapshot. No Prefect, no ADK: :mod:`tasks.integrations.adk_working`
is the ADK side.

- :mod:`~tasks.working.rows` the stored row; :mod:`~tasks.working.items` items, content and errors;
- :mod:`~tasks.working.index` query-focused excerpts; :mod:`~tasks.working.transforms` retrieve's views;
- :mod:`~tasks.working.compaction` citations (plugins, LLM option); :mod:`~tasks.working.policy`
  first-full-then-cited; :mod:`~tasks.working.memory` the store itself; :mod:`~tasks.working.snapshot`.

This package file imports nothing, so :mod:`tasks.store.schema` can import the row model.
"""
