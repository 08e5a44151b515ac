"""Errors the pipeline raises on purpose, each with a message a user can act on."""


class PipelineError(Exception):
    """Base class of the pipeline's own errors."""


class EmbedderMismatchError(PipelineError):
    """The store was built with another embedding model or dimension than the one configured."""


class InvalidFilterError(PipelineError, ValueError):
    """A filter value that cannot be used safely in a Lance ``where`` clause."""


class ProviderConfigError(PipelineError):
    """A provider was chosen in settings but cannot be built (missing package, key or file)."""


class StoreNotFoundError(PipelineError):
    """A read named a store URI where nothing was ever written (a mistyped path, usually)."""


class SourceError(PipelineError):
    """A session source cannot be read at all (a missing folder, an unknown source kind)."""


class StoreBusyError(PipelineError):
    """Another run holds the store's writer lock for longer than this run would wait."""


class ProviderCallError(PipelineError):
    """An LLM endpoint kept failing (rate limit, server error, timeout) after every retry."""


class ProviderReplyError(PipelineError):
    """An LLM reply that is not valid JSON for its schema, even after one repair attempt.

    ``raw`` keeps the reply text so that the session can be quarantined with it.
    """

    def __init__(self, reason: str, raw: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.raw = raw


class ClusterUnreachableError(PipelineError):
    """The configured Dask scheduler (``dask_address``) cannot be reached: the run starts nothing."""
