"""moto's S3 server made as atomic as S3 where Lance relies on it: a conditional PUT (``If-None-Match: *``).

Lance commits a table version by writing its manifest with ``If-None-Match: *``: of two writers, S3 lets
exactly one create the object. moto checks and then stores in two steps on its request threads, so two
racing PUTs could both succeed, which S3 never does; one lock around moto's object PUT restores that.
"""

from __future__ import annotations

import threading
from typing import Any

_LOCK = threading.Lock()
_PATCHED: list[bool] = []


def atomic_conditional_puts() -> None:
    """Serialise moto's object PUTs (once per process)."""
    if _PATCHED:
        return
    from moto.s3.responses import S3Response

    original = S3Response.put_object

    def put_object(self: Any) -> Any:
        with _LOCK:
            return original(self)

    S3Response.put_object = put_object  # type: ignore[method-assign]
    _PATCHED.append(True)
