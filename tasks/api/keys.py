"""API keys: one per app, or admin; hashed as soon as they are read, compared by hash in constant time.

A key file is JSON ``{"keys": [{"key": "…", "app": "acme"}, {"key_sha256": "<hex>", "admin": true}]}``:
plain keys are hashed on load (only the hash stays in memory), a stored ``key_sha256`` is taken as is.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tasks.errors import PipelineError
from tasks.ids import id_problem
from tasks.settings import Settings


class KeyFileError(PipelineError):
    """The key file or an entry in it cannot be used."""


@dataclass(frozen=True)
class Principal:
    """Who a request acts as: one app's key, or an admin key that sees every app."""

    name: str
    app: str | None
    admin: bool

    def may_see(self, app_name: str) -> bool:
        return self.admin or self.app == app_name


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class KeyRing:
    """The hashes of the accepted keys and whom each stands for."""

    def __init__(self, entries: Iterable[Mapping[str, object]]) -> None:
        self._by_hash: dict[str, Principal] = {}
        for n, entry in enumerate(entries):
            digest, principal = _entry(entry, n)
            self._by_hash[digest] = principal
        if not self._by_hash:
            raise KeyFileError("no API keys configured: give --keys FILE or settings.api_keys")

    def __len__(self) -> int:
        return len(self._by_hash)

    def principal(self, key: str) -> Principal | None:
        """Whom ``key`` stands for, or None; every stored hash is compared so timing says nothing."""
        digest, found = hash_key(key), None
        for stored, principal in self._by_hash.items():
            if hmac.compare_digest(stored, digest):
                found = principal
        return found


def _entry(entry: Mapping[str, object], n: int) -> tuple[str, Principal]:
    key, stored, app, admin = entry.get("key"), entry.get("key_sha256"), entry.get("app"), entry.get("admin", False)
    if not isinstance(admin, bool):
        raise KeyFileError(f"keys[{n}].admin must be true or false")
    if isinstance(key, str) and key:
        if len(key) < 16:
            raise KeyFileError(f"keys[{n}].key is shorter than 16 characters")
        digest = hash_key(key)
    elif isinstance(stored, str) and len(stored) == 64 and all(c in "0123456789abcdef" for c in stored.lower()):
        digest = stored.lower()
    else:
        raise KeyFileError(f"keys[{n}] needs a 'key' or a 64-hex-digit 'key_sha256'")
    if not admin:
        problem = id_problem(app)
        if problem:
            raise KeyFileError(f"keys[{n}].app {problem} (a key is for one app unless admin is true)")
    name = str(entry.get("name") or (f"admin-{n}" if admin else f"{app}-{n}"))
    return digest, Principal(name=name, app=None if admin else str(app), admin=admin)


def load_keys(settings: Settings, path: str | None = None) -> KeyRing:
    """The keys of ``path`` (else ``settings.api_keys_file``) and ``settings.api_keys`` together."""
    entries: list[Mapping[str, object]] = list(settings.api_keys)
    source = path or settings.api_keys_file
    if source:
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise KeyFileError(f"cannot read the key file {source!r}: {exc}") from exc
        keys = data.get("keys") if isinstance(data, dict) else None
        if not isinstance(keys, list) or not all(isinstance(k, dict) for k in keys):
            raise KeyFileError(f'key file {source!r} must be {{"keys": [{{...}}, ...]}}')
        entries += keys
    return KeyRing(entries)
