"""Write-path accuracy: generated phrasing families played through the real ingest (see runner)."""

from evaluation.writepath.runner import WritepathMetrics, run_writepath

__all__ = ["WritepathMetrics", "run_writepath"]
