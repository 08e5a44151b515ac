"""Lives told over months, then asked back now: does the agent recall what is true today?

Each user tells things over several sessions (ten days apart), some of which change what was told
before (a move, a new job, a pet gone, a plan called off, a correction, "forget that"); then asks, in
the first person and other words, what is the case now. This is what a user judges: the write path's
changes and recall's ranking together. A question's answer terms (any one) must be in a hit's text;
its stale terms are words of the earlier, now-wrong statement. Measured:

- ``right@1`` / ``right@3``: an answer term in the top hit / the top three;
- ``stale above``: a hit saying a stale term (outside its "(previously: …)" note, and not in a line
  noted "later changed: …") ranked above the first right hit in the top three, or in the top three
  with no right hit: the agent is shown the old state first;
- ``stale above unmarked``: the same with recall's current/earlier marks off (``recall_current``): what
  the marks change;
- ``stale stored``: active memories that still say a stale term (the write path did not close them);
- ``abstained``: answerable questions judged "nothing relevant"; ``none abstained``: questions about
  what was never told that were.

DEV (``evaluation/cases/asked_now_dev.jsonl``) and HELD-OUT (``asked_now_held.jsonl``) were written by
two helper sessions that read neither the rules nor each other's cases, before any change; DEV's
failures are read (``--verbose``), HELD-OUT's never. HELD-OUT-2 (``asked_now_held2.jsonl``) was
written the same way by a third, after HELD-OUT's counts had been used to choose between variants of
a recall lever: the clean measure from then on. A question about what the user asked to forget
has the forget request's words as its answer terms (HELD-OUT has two); a store that deleted the
memory may show none of them, and its stale terms measure the leak. Run ``python -m evaluation.asked_now [--verbose]
[--reranker]``.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from pydantic import TypeAdapter

from evaluation.cases import read_cases
from tasks.ingest.run import ingest_sessions
from tasks.models import Event, RecallHit, Session
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import MEMORIES, open_store

APP = "asked-now"
NOW = datetime(2026, 11, 20, 18, tzinfo=UTC)
#: What the agent says between the user's turns: says nothing about the user.
_REPLIES = ("Got it!", "Sure, happy to help.", "Okay, noted.")
#: A changed memory's note on its earlier value: not what it says now.
_OLD = re.compile(r" \((?:previously: .*?; changed|changed from .*?) on \d{4}-\d\d-\d\d\)", re.S)
#: An episode's note on what a line of it became later.
_LATER = "(later changed:"

Question = tuple[str, tuple[str, ...], tuple[str, ...]]
Life = tuple[str, tuple[tuple[str, ...], ...], tuple[Question, ...]]
#: One life a line: [user, [[turn, ...] per session, oldest first], [[question, answers, stale terms], ...]].
LIFE = TypeAdapter(Life)
_FILES = {"dev": "asked_now_dev", "held-out": "asked_now_held", "held-out-2": "asked_now_held2"}


def splits() -> dict[str, Sequence[Life]]:
    """The three splits' lives, read from their case files when the probe runs (not at import)."""
    return {split: read_cases(name, LIFE) for split, name in _FILES.items()}


def sessions(split: str, life: Life) -> list[Session]:
    """A life's sessions, ten days apart and ending two days before :data:`NOW`."""
    user, told, _ = life
    out = []
    for s, turns in enumerate(told):
        at = NOW - timedelta(days=2 + 10 * (len(told) - 1 - s))
        events: list[Event] = []
        for t, turn in enumerate(turns):
            events.append(Event(id=f"{user}-{s}-u{t}", author="user", role="user", text=turn,
                                timestamp=at + timedelta(minutes=2 * t)))  # fmt: skip
            events.append(Event(id=f"{user}-{s}-a{t}", author="agent", role="agent", text=_REPLIES[t % 3],
                                timestamp=at + timedelta(minutes=2 * t + 1)))  # fmt: skip
        ended = at + timedelta(minutes=2 * len(turns))
        out.append(Session(app_name=APP, user_id=f"{split}-{user}", session_id=f"{split}-{user}-{s}",
                           started_at=at, ended_at=ended, events=tuple(events)))  # fmt: skip
    return out


def says(text: str, terms: Sequence[str]) -> bool:
    """Whether the text, without its note on an earlier value, says one of the terms."""
    current = _OLD.sub("", text).lower()
    return any(term.lower() in current for term in terms)


def says_stale(text: str, stale: Sequence[str]) -> bool:
    """Whether the text says a stale term as what is so: an episode's line noting that it "later
    changed" shows the agent the change, not the old state."""
    return _LATER not in text and says(text, stale)


def stale_above(hits: Sequence[RecallHit], answer: Sequence[str], stale: Sequence[str]) -> bool:
    """A stale hit in the top three above the first right one (or with none right); a hit recall marks
    not current ("earlier (<date>): …") shows the agent it is the old state, like a "later changed" note."""
    for hit in hits[:3]:
        if answer and says(hit.content, answer):
            return False
        if stale and hit.current and says_stale(hit.content, stale):
            return True
    return False


def measure(settings: Settings, verbose: bool = False) -> dict[str, dict[str, int]]:
    """Per split: the counts named in the module docstring."""
    results: dict[str, dict[str, int]] = {}
    lives_of = splits()
    with tempfile.TemporaryDirectory() as tmp:
        mode = settings.model_copy(update={"store_uri": tmp})
        ingest_sessions([s for split, lives in lives_of.items() for life in lives for s in sessions(split, life)], mode)
        active: dict[str, list[str]] = {}
        for row in open_store(mode).rows(MEMORIES, columns=["user_id", "status", "content"]):
            if row["status"] == "active":
                active.setdefault(row["user_id"], []).append(row["content"])
        unmarked = mode.model_copy(update={"recall_current": False, "recall_abstain_answer_check": False})
        with Recaller(mode) as recaller, Recaller(unmarked) as plain:
            for split, lives in lives_of.items():
                row = results[split] = dict.fromkeys(
                    ("asked", "right@1", "right@3", "stale above", "stale above unmarked", "stale stored",
                     "abstained", "none", "none abstained"), 0)  # fmt: skip
                for user, _, questions in lives:
                    for question, answer, stale in questions:
                        result = recaller.recall_result(question, APP, f"{split}-{user}", k=5, now=NOW)
                        hits = result.hits
                        shown_stale = stale_above(hits, answer, stale)
                        before = plain.recall_result(question, APP, f"{split}-{user}", k=5, now=NOW).hits
                        row["stale above unmarked"] += stale_above(before, answer, stale)
                        stored = [m for m in active.get(f"{split}-{user}", []) if stale and says_stale(m, stale)]
                        row["stale above"] += shown_stale
                        row["stale stored"] += bool(stored)
                        if answer:
                            row["asked"] += 1
                            row["right@1"] += bool(hits) and says(hits[0].content, answer)
                            row["right@3"] += any(says(h.content, answer) for h in hits[:3])
                            row["abstained"] += not result.confident
                        else:
                            row["none"] += 1
                            row["none abstained"] += not result.confident
                        wrong = answer and not (hits and says(hits[0].content, answer))
                        if verbose and split == "dev" and (wrong or shown_stale or stored):
                            print(f"{user}: {question}  answer {answer} stale {stale}")
                            for h in hits[:3]:
                                print(f"    {h.kind[:3]} {h.content[:150]}")
                            for m in stored:
                                print(f"    STORED {m[:150]}")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reranker", action="store_true", help="with the cross-encoder reranker")
    parser.add_argument("--verbose", action="store_true", help="print DEV's misses (never HELD-OUT's)")
    args = parser.parse_args()
    settings = Settings(recall_reranker="cross-encoder" if args.reranker else "none")
    for name, row in measure(settings, args.verbose).items():
        print(f"{name:9s} right@1 {row['right@1']}/{row['asked']}  right@3 {row['right@3']}/{row['asked']}  "
              f"stale above {row['stale above']} (unmarked {row['stale above unmarked']})  "
              f"stale stored {row['stale stored']}  "
              f"abstained {row['abstained']}/{row['asked']}  "
              f"none abstained {row['none abstained']}/{row['none']}")  # fmt: skip


if __name__ == "__main__":
    main()
