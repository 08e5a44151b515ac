"""The pipeline's stages as plain functions; Prefect task wrappers live in ``tasks.ingest_tasks``."""

import os

# Lance prints a deprecation warning per hybrid query unless told otherwise before it is imported.
os.environ.setdefault("LANCEDB_LOG", "error")
