"""Session probe: does a whole session, ingested for real, leave the store with what only the conversation
tells?

``python -m evaluation.session_probe`` ingests each case of ``evaluation/cases/session_probe15.jsonl`` (48
short sessions between a user and an agent, written blind: answers to the agent's questions,
corrections, choices, refusals, the agent's unconfirmed guesses) as one user's session into a fresh store,
then reads that user's active memories. A case is right when every expected fact is in one memory and no
forbidden word is in any memory's current text (what precedes "(previously …)" / "(changed from …)").
Cases are dealt into DEV and HELD-OUT by a seeded shuffle; ``--show DEV`` prints DEV's memories, HELD-OUT
is only ever counted. ``--written`` runs ``session_written_dev.jsonl`` and ``session_written_held.jsonl``
instead: sessions written before the session rules were measured on them (corrections later in the session
and picks among the agent's options, said in other ways than the probe's DEV cases); DEV was used while
changing rules, HELD-OUT is only counted.

Each case: ``turns``, ("user" | "agent", text) in order; ``expect``, lists of keywords that some active
memory must all contain (one list a fact); ``absent``, keywords no active memory may contain before its
history ("(changed from …)"); ``note``, what the case tests; ``group``, its family where one was named.
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
from datetime import UTC, datetime, timedelta
from typing import NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic validates only this TypedDict on Python 3.11

from evaluation.cases import read_cases
from evaluation.chat_probe import report, tally
from evaluation.restated import active_by_user
from tasks.ingest.run import ingest_sessions
from tasks.models import Event, Session
from tasks.settings import Settings
from tasks.store.tables import open_store

SPLIT_SEED = 2815
NOW = datetime(2026, 10, 1, 18, tzinfo=UTC)


class SessionCase(TypedDict):
    turns: list[tuple[str, str]]
    expect: list[list[str]]
    absent: list[str]
    note: str
    group: NotRequired[str]


SESSION_CASE = TypeAdapter(SessionCase)


def splits(written: bool = False) -> dict[str, list[SessionCase]]:
    """DEV and HELD-OUT, half each, by a seeded shuffle fixed before the cases were run; ``written``: the
    written-before sessions, split as written."""
    if written:
        return {"DEV": read_cases("session_written_dev", SESSION_CASE),
                "HELD-OUT": read_cases("session_written_held", SESSION_CASE)}  # fmt: skip
    shuffled = read_cases("session_probe15", SESSION_CASE)
    random.Random(SPLIT_SEED).shuffle(shuffled)
    half = len(shuffled) // 2
    return {"DEV": shuffled[:half], "HELD-OUT": shuffled[half:]}


def session_of(case: SessionCase, user: str) -> Session:
    """The case's turns as one session, a minute apart."""
    events = tuple(
        Event(id=f"{user}-e{i}", author=who, role="user" if who == "user" else "agent", text=text, timestamp=at)
        for i, (who, text) in enumerate(case["turns"])
        for at in (NOW + timedelta(minutes=i),)
    )
    return Session(app_name="probe", user_id=user, session_id=f"{user}-s", started_at=NOW,
                   ended_at=events[-1].timestamp, events=events)  # fmt: skip


def verdict(case: SessionCase, memories: list[str]) -> tuple[list[bool], list[str]]:
    """Per expected fact, whether one memory holds all its keywords; and the forbidden words still told."""
    lowered = [m.lower() for m in memories]
    current = [re.split(r"\((?:previously|changed from)\b", m)[0] for m in lowered]
    found = [any(all(k.lower() in m for k in keys) for m in lowered) for keys in case["expect"]]
    bad = [k for k in case["absent"] if any(re.search(rf"\b{re.escape(k.lower())}", m) for m in current)]
    return found, bad


def stored(cases: list[SessionCase], prefix: str) -> list[list[str]]:
    """Each case ingested as its own user into one fresh store: that user's active memories."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings().model_copy(update={"store_uri": tmp})
        ingest_sessions([session_of(c, f"{prefix}{i}") for i, c in enumerate(cases)], settings)
        by_user = active_by_user(open_store(settings))
    return [by_user.get(f"{prefix}{i}", []) for i in range(len(cases))]


def run(show: str | None = None, written: bool = False) -> dict[str, dict[str, int]]:
    """Counts per split: cases, right, facts, facts found, cases with a forbidden word."""
    results = {}
    for name, cases in splits(written).items():
        row = results[name] = dict.fromkeys(("cases", "right", "facts", "found", "forbidden"), 0)
        for case, memories in zip(cases, stored(cases, name[0].lower()), strict=True):
            right = tally(row, *verdict(case, memories))
            if show == name == "DEV":
                print(f"{'ok ' if right else 'BAD'} {case['note']}: {case['turns']!r}")
                print(f"      expect {case['expect']} absent {case['absent']}")
                for memory in memories:
                    print(f"      {memory}")
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--show", choices=["DEV"], default=None, help="print DEV's memories case by case")
    parser.add_argument("--written", action="store_true", help="the sessions written for round 28's rules")
    args = parser.parse_args(argv)
    report(run(args.show, args.written))


if __name__ == "__main__":
    main()
