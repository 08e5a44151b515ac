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


class TtlRule(BaseModel):
    """Expire a topic's active memories ``days`` after a reference time (issue 13).

    ``since``: ``stated`` (when the fact was said), ``confirmed`` (its last repeat, else stated),
    ``recalled`` (its last recall, repeat or statement: the latest sign it still matters).
    """

    topic: str
    since: Literal["stated", "confirmed", "recalled"] = "recalled"
    days: float


def _default_ttl_rules() -> tuple[TtlRule, ...]:
    # Key conversation details lapse after a year unless recalled; personal info, preferences and
    # instructions never expire by age (only by an explicit expiry, a contradiction or a forget request).
    return (TtlRule(topic="key_conversation_details", since="recalled", days=365.0),)


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

    # --- maintenance passes, deployments and backfills (issue 13) ---------------------------------
    #: TTL rules per topic (topics without a rule expire only by an explicit ``expires_at``).
    ttl_rules: tuple[TtlRule, ...] = Field(default_factory=_default_ttl_rules)
    #: Closed rows (these statuses) are hard-deleted once closed longer than this; 0 never deletes.
    closed_retention_days: float = 365.0
    purge_statuses: tuple[str, ...] = ("expired", "archived", "merged")
    #: Decay: active memories whose strength (recall's non-similarity score, in [0, 1]) is under it are archived.
    decay_floor: float = 0.2
    #: Capacity: at most this many active memories per user (0: no limit) and per user and topic.
    max_active_per_user: int = 5000
    max_active_per_topic: dict[str, int] = Field(default_factory=dict)
    capacity_strategy: Literal["weakest", "oldest", "least_recalled"] = "weakest"
    #: Merge: active memories of one user at or above this cosine (same topic and attribute) become one.
    merge_threshold: float = 0.95
    #: Episodes ended longer ago than this are rolled up into one summary per user and month (0: never).
    episode_rollup_days: float = 180.0
    #: Upkeep: table versions older than this are cleaned up, except those runs of the window can roll back to.
    version_retention_days: float = 7.0
    #: Rows per read chunk of the streaming passes (clustering, re-embedding, scans).
    maintain_chunk_rows: int = 50_000
    #: Sessions per ingest run of a backfill.
    backfill_batch_size: int = 50

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
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=Path(path)))
        return tuple(sources)


def load_settings(**overrides: Any) -> Settings:
    """Settings from env and file, with explicit overrides (e.g. CLI flags) on top; None means unset."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
