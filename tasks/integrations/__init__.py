"""Integrations with agent frameworks, each an optional extra; the core never imports them.

- :mod:`tasks.integrations.adk_memory`: a Google ADK ``BaseMemoryService`` over the pipeline's store
  (``pip install agent-memory-pipeline[adk]``).
- :mod:`tasks.integrations.spool`: the queue the memory service hands sessions to (no ADK import).
"""
