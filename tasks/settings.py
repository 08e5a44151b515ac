"""One settings object for every flow, task and command.

Read from ``MEMORY_PIPELINE_*`` environment variables and, optionally, a TOML file named by
``MEMORY_PIPELINE_SETTINGS_FILE``. Flows call :func:`load_settings` at run time, never at import.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

ProviderName = Literal["local", "openai"]

MANAGED_TOPICS: tuple[str, ...] = (
    "user_personal_info",
    "user_preferences",
    "key_conversation_details",
    "explicit_instructions",
)


class CustomTopic(BaseModel):
    """A user-defined topic: a fact lands here when its sentence matches a keyword or regex."""

    name: str
    keywords: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    description: str = ""


class RankingWeights(BaseModel):
    """Weights of the final recall score; similarity dominates, the rest break near-ties."""

    similarity: float = 1.0
    recency: float = 0.15
    importance: float = 0.1
    frequency: float = 0.05
    #: How much a full-text (BM25) match adds to cosine: rescues rare names and numbers.
    keyword: float = 0.3


def _default_half_lives() -> dict[str, float]:
    return {
        "user_personal_info": 3650.0,
        "user_preferences": 365.0,
        "key_conversation_details": 180.0,
        "explicit_instructions": 3650.0,
        "episode": 90.0,
    }


class Settings(BaseSettings):
    """Every knob of the pipeline; immutable defaults, read once per run and passed down."""

    model_config = SettingsConfigDict(
        env_prefix="MEMORY_PIPELINE_",
        env_nested_delimiter="__",
        extra="ignore",
        frozen=True,
    )

    store_uri: str = "data/store"
    sessions_uri: str = "data/sessions"
    #: Where sessions are pulled from: "files" reads JSONL / ADK JSON under sessions_uri.
    session_source: Literal["files"] = "files"

    extractor: ProviderName = "local"
    summarizer: ProviderName = "local"
    consolidator: ProviderName = "local"
    embedder: ProviderName = "local"

    embedding_model: str = "all-MiniLM-L6-v2-int8"
    embedding_batch_size: int = 64
    openai_base_url: str | None = None
    openai_api_key: str | None = None
    openai_chat_model: str = "gpt-4o-mini"
    openai_embedding_model: str = "text-embedding-3-small"

    custom_topics: tuple[CustomTopic, ...] = ()
    duplicate_threshold: float = 0.92
    related_threshold: float = 0.55
    related_k: int = 10

    half_life_days: dict[str, float] = Field(default_factory=_default_half_lives)
    ranking: RankingWeights = Field(default_factory=RankingWeights)
    recall_k: int = 10
    recall_min_score: float = 0.0
    include_episodes: bool = True
    #: How stale a long-lived Recaller may be: 0 checks for new writes on every recall (one cheap
    #: version lookup locally; raise it on object storage, where the lookup is a LIST request).
    recall_refresh_seconds: float = 0.0
    #: Exact recall reads a tenant's rows whole in its one scan while a table's tenants average up
    #: to this many rows; beyond (or with 0), it reads only vectors and takes the candidates' columns.
    recall_whole_tenant_max_rows: int = 400
    ann_index_min_rows: int = 50_000
    #: Tables from this size are kept clustered by (app, user); 0 turns clustering off.
    cluster_min_rows: int = 50_000
    #: Re-cluster once more than this share of a table's rows was written since the last clustering.
    cluster_max_unclustered_share: float = 0.1
    context_max_tokens: int = 800

    quarantine_raw_max_chars: int = 4000
    #: How long a writer (ingest run, maintenance pass) waits for the store's lock before failing.
    lock_timeout_seconds: float = 600.0
    #: Where locks of object-store URIs live (a local store keeps its lock in its own folder).
    lock_dir: str = ".memory-pipeline-locks"

    # -- issue 14: erasure, user control, PII redaction -----------------------------------------
    #: Days a forgotten (status "deleted") memory's text is kept before it is physically erased at
    #: the end of an ingest run; 0 erases it right after the run that forgot it.
    forgotten_retention_days: float = 0.0
    #: Redact PII (emails, phone and card numbers, ``redact_patterns``) before anything is stored.
    redact_pii: bool = False
    #: Extra regexes to redact (each match becomes "[REDACTED]"), used when ``redact_pii`` is on.
    redact_patterns: tuple[str, ...] = ()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        path = os.environ.get("MEMORY_PIPELINE_SETTINGS_FILE")
        if path:
            if not Path(path).is_file():  # a named file that is missing is a mistake, not "no settings"
                raise FileNotFoundError(f"settings file {path!r} (MEMORY_PIPELINE_SETTINGS_FILE) does not exist")
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=Path(path)))
        return tuple(sources)


def load_settings(**overrides: Any) -> Settings:
    """Settings from env and file, with explicit overrides (e.g. CLI flags) on top; None means unset."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
