"""Procedural memory (seed 003): what sequences of actions worked, by task type, offered when a task starts.

A finished agent run is recorded as a trace (tool names, argument shapes, order, outcome, duration,
tokens) with its task type and success signal (explicit feedback, a tool error, the agent's final status);
consolidation merges similar successful traces into procedures with a success rate and last use, and
demotes those that keep failing; recall offers the best ones for a new task within a token budget.

- :mod:`~tasks.procedures.rows` the two tables' rows; :mod:`~tasks.procedures.models` traces and steps;
- :mod:`~tasks.procedures.record` writes traces; :mod:`~tasks.procedures.consolidate` builds procedures;
- :mod:`~tasks.procedures.recall` ranks them for a task; :mod:`~tasks.procedures.section` the context
  section ("For tasks like this, what worked: …") next to facts and episodes.

This package file imports nothing, so :mod:`tasks.store.schema` can import the row models.
"""
