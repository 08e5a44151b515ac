"""The pipeline's stages as plain typed functions, one folder per stage (see docs/architecture.md).

``sources`` → ``ingest`` → ``consolidate`` → ``store`` → ``recall``, with ``providers`` behind
protocols; Prefect task wrappers live with the flows in ``flows/``.
"""

import os

# Lance prints a deprecation warning per hybrid query unless told otherwise before it is imported.
os.environ.setdefault("LANCEDB_LOG", "error")
