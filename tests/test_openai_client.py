"""The client's retry waits (Retry-After) and usage counted per run, against the scripted local server."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from tasks.ingest.run import ingest_sessions
from tasks.ingest.stages import IngestSummary
from tasks.models import Session
from tasks.providers.openai_client import LLMClient
from tasks.providers.openai_extractor import OpenAIExtractor
from tasks.providers.openai_slots import Slots
from tasks.providers.openai_usage import USAGE
from tests.clock import NOW
from tests.llm_stub import LLMStub, Scripted, make_session, plausible_chat, stub_settings

ONE_FACT = (
    '{"facts": [{"topic": "user_preferences", "content": "The user has a parrot", "source_event_ids": ["s1-e0"],'
    ' "importance": 0.5, "slot": null, "value": null}], "forget_requests": []}'
)
TURNS = [("user", "I adopted a parrot called Kiwi"), ("agent", "Lovely!")]


def waits(stub: LLMStub, tmp_path: Path, *scripted: Scripted) -> list[float]:
    """The waits between attempts for the scripted failures (then a valid reply); no real sleeping, and
    the client's clock is the suite's fixed one."""
    delays: list[float] = []
    settings = stub_settings(stub, tmp_path / "store", openai_backoff_base_seconds=0.5, openai_backoff_max_seconds=30)
    stub.chat.extend([*scripted, Scripted(content=ONE_FACT)])
    out = OpenAIExtractor(settings, LLMClient(settings, "extractor", sleep=delays.append, clock=NOW.timestamp)).extract(
        make_session("s1", TURNS)
    )
    assert len(out.facts) == 1 and len(stub.chat_requests()) == len(scripted) + 1
    return delays


def test_retry_after_seconds_is_honoured(llm_stub: LLMStub, tmp_path: Path) -> None:
    assert waits(llm_stub, tmp_path, Scripted(status=429, headers={"Retry-After": "2"})) == [2.0]


def test_retry_after_ms_is_honoured(llm_stub: LLMStub, tmp_path: Path) -> None:
    assert waits(llm_stub, tmp_path, Scripted(status=503, headers={"retry-after-ms": "1500"})) == [1.5]


def test_retry_after_http_date_is_honoured(llm_stub: LLMStub, tmp_path: Path) -> None:
    when = format_datetime(NOW + timedelta(seconds=8), usegmt=True)
    [delay] = waits(llm_stub, tmp_path, Scripted(status=503, headers={"Retry-After": when}))
    assert delay == 8.0, "the wait is what is left until then, on the client's clock"


def test_retry_after_is_capped_and_never_negative(llm_stub: LLMStub, tmp_path: Path) -> None:
    past = format_datetime(NOW - timedelta(minutes=5), usegmt=True)
    delays = waits(llm_stub, tmp_path, Scripted(status=429, headers={"Retry-After": "3600"}),
                   Scripted(status=429, headers={"Retry-After": past}))  # fmt: skip
    assert delays == [30.0, 0.0]


@pytest.mark.parametrize(
    "scripted",
    [Scripted(status=429, headers={"Retry-After": "soon"}), Scripted(status=500, headers={"Retry-After": "9"})],
    ids=["unreadable", "not-429-or-503"],
)
def test_backoff_applies_without_a_usable_retry_after(llm_stub: LLMStub, tmp_path: Path, scripted: Scripted) -> None:
    [delay] = waits(llm_stub, tmp_path, scripted)
    assert 0.25 <= delay <= 0.5, "the first backoff step, with jitter"


# -- usage per run ------------------------------------------------------------------------------


def sessions(n: int, user: str) -> list[Session]:
    return [
        make_session(f"{user}-s{i}", [("user", f"I adopted a parrot called Kiwi number {i}"),
                                      ("user", f"My parrot Kiwi {i} likes sunflower seeds")], day=i, user=user)
        for i in range(n)
    ]  # fmt: skip


def run(stub: LLMStub, store: Path, batch: list[Session]) -> IngestSummary:
    return ingest_sessions(batch, stub_settings(stub, store, openai_embedding_dim=64))


def test_usage_is_counted_per_run_not_per_process(tmp_path: Path) -> None:
    stub = LLMStub(chat_default=plausible_chat).start()
    try:
        alone = {n: run(stub, tmp_path / f"alone-{n}", sessions(n, f"u{n}")).llm_usage for n in (2, 5)}
        assert alone[2]["extractor"]["calls"] == 2 and alone[5]["extractor"]["calls"] == 5
        # The same two runs again, in turn: each counts its own calls, not the process's so far.
        before = USAGE.snapshot()["extractor"]["calls"]
        again = {n: run(stub, tmp_path / f"again-{n}", sessions(n, f"u{n}")).llm_usage for n in (2, 5)}
        assert again == alone
        assert USAGE.snapshot()["extractor"]["calls"] == before + 7  # the process's meter still counts all
        # And at the same time, in two threads, with latency so that their calls interleave.
        stub.latency = 0.02
        out: dict[int, IngestSummary] = {}
        threads = [
            threading.Thread(target=lambda n=n: out.__setitem__(n, run(stub, tmp_path / f"par-{n}",
                                                                       sessions(n, f"u{n}"))))
            for n in (2, 5)
        ]  # fmt: skip
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert {n: s.llm_usage for n, s in out.items()} == alone
        assert stub.peak > 1
    finally:
        stub.stop()


def test_request_slots_admit_the_lowest_priority_first() -> None:
    """The consolidation schedule's urgent requests overtake the ones made far ahead (same bound)."""
    slots = Slots(1)
    admitted: list[int] = []
    hold = slots.slot(0)
    hold.__enter__()

    def wait(priority: int) -> None:
        with slots.slot(priority):
            admitted.append(priority)

    threads = [threading.Thread(target=wait, args=(p,)) for p in (5, 1, 3, 1)]
    for thread in threads:
        thread.start()
        while len(slots._waiting) < threads.index(thread) + 1:  # queued in this order
            time.sleep(0.001)
    hold.__exit__(None, None, None)
    for thread in threads:
        thread.join()
    assert admitted == [1, 1, 3, 5]
