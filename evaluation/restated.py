"""A fact said again in other words, weeks later: one memory confirmed, not a second one.

Users repeat themselves: "I live in Utrecht", then a month later "Utrecht is where I live, by the way".
A restatement that becomes a second memory takes a second slot in every recall about it and, once the
first is changed, leaves a stale copy behind. But a repeat that adds something ("I play the cello in a
quartet now"), or says the same words of someone else ("my brother lives in Utrecht"), must be kept.

Each case is a user with three unrelated memories, a first statement, and a second one 30 days later:
- RESTATED: the second says nothing new; right when its session logs only IGNOREs (a confirmation of
  the first memory), or no fact at all, and the number of active memories is unchanged.
- KEEP: the second says something new; right when every marker (the new thing, and for another holder
  the old thing too) is in an active memory.
DEV and HELD-OUT were written together before any rule; DEV's failures were read, HELD-OUT's never.
Run ``python -m evaluation.restated``.

``--merge`` measures the merge pass on a store that holds both statements as memories, as one written
before the write path knew restatements does: the second statement is ingested as another user and its
memories moved to the first; then the same two scores after ``run_merge``.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from evaluation.temporal import told_session
from tasks.ingest.run import ingest_sessions
from tasks.maintain.merge import run_merge
from tasks.models import Session, stable_id
from tasks.rows import MemoryRow
from tasks.settings import Settings
from tasks.store.tables import CHANGES, MEMORIES, Store, open_store

NOW = datetime(2026, 10, 1, 12, tzinfo=UTC)
BACKGROUND = ("I go running on Sunday mornings.", "My car is a blue Golf.", "I'm reading a novel by Ishiguro.")
#: (first statement, second statement, markers): no markers means a restatement.
Case = tuple[str, str, tuple[str, ...]]
DEV: tuple[Case, ...] = (
    ("I live in Utrecht.", "Utrecht is where I live, by the way.", ()),
    ("I'm allergic to penicillin.", "Just so you know, I'm allergic to penicillin.", ()),
    ("I work as a nurse.", "As I said, I work as a nurse.", ()),
    ("My favourite band is Radiohead.", "Radiohead is my favourite band.", ()),
    ("I prefer aisle seats on long flights.", "On long flights I always prefer an aisle seat, remember.", ()),
    ("My sister's name is Nora.", "Remember, my sister is called Nora.", ()),
    ("I'm vegetarian.", "As you know, I'm a vegetarian.", ()),
    ("I drive a Honda Civic.", "I still drive a Honda Civic.", ()),
    ("I live in Utrecht.", "My brother lives in Utrecht.", ("brother", "User lives in Utrecht")),
    ("My brother lives in Utrecht.", "I live in Utrecht.", ("brother", "User lives in Utrecht")),
    ("I play the cello.", "I play the cello in a quartet on Thursdays.", ("quartet",)),
    ("I'm vegetarian.", "I'm not vegetarian anymore.", ("not vegetarian",)),
    ("My son plays football.", "I play football.", ("son", "User plays football")),
    ("I'm learning Spanish.", "I'm learning Spanish and Italian.", ("Italian",)),
    ("My grandparents live in Cork.", "I live in Cork.", ("grandparents", "User lives in Cork")),
    ("I work from home.", "My in-laws work from home.", ("in-laws", "User works from home")),
    ("I have a cat named Miso.", "Remember that my cat is called Miso.", ()),
    ("I have a son who plays football.", "I play football.", ("son", "User plays football")),
    ("I don't drink alcohol.", "I don't drink alcohol, just so you know.", ()),
)  # fmt: skip
HELD: tuple[Case, ...] = (
    ("I'm a software engineer.", "Like I mentioned, I'm a software engineer.", ()),
    ("I have two cats.", "Remember I have two cats.", ()),
    ("My birthday is on March 3rd.", "March 3rd is my birthday.", ()),
    ("I'm lactose intolerant.", "Don't forget I'm lactose intolerant.", ()),
    ("I support Arsenal.", "I'm an Arsenal supporter, as you know.", ()),
    ("I live in a flat in Leeds.", "Leeds is where my flat is.", ()),
    ("I take the train to work.", "Still taking the train to work.", ()),
    ("My wife works as a teacher.", "My wife is a teacher, remember.", ()),
    ("I live in Leeds.", "My parents live in Leeds.", ("parents", "User lives in Leeds")),
    ("My daughter is a teacher.", "I'm a teacher.", ("daughter", "User is a teacher")),
    ("I have two cats.", "I have two cats and a rabbit.", ("rabbit",)),
    ("I support Arsenal.", "I don't support Arsenal anymore, I switched to Spurs.", ("Spurs",)),
    ("I take the train to work.", "I take the train to work but cycle home.", ("cycle",)),
    ("My sister lives in Paris.", "My sister lives in Paris with her husband.", ("husband",)),
    ("My family lives in Porto.", "I live in Porto.", ("family", "User lives in Porto")),
    ("I speak German at home.", "My children speak German at home.", ("children", "User speaks German")),
    ("I have a sister called Ruth.", "My sister's name is Ruth, remember.", ()),
    ("I have a daughter who lives in Bristol.", "I live in Bristol.", ("daughter", "User lives in Bristol")),
    ("I don't eat pork.", "Remember, I don't eat pork.", ()),
)  # fmt: skip


def sessions(cases: Sequence[Case], user_prefix: str) -> list[Session]:
    """Per case a user: the background (60–50 days ago), the first statement (40), the second (10)."""
    out: list[Session] = []
    for i, (first, second, _) in enumerate(cases):
        user = f"{user_prefix}{i}"
        said = [*BACKGROUND, first, second]
        days = [60, 55, 50, 40, 10]
        for j, (text, ago) in enumerate(zip(said, days, strict=True)):
            out.append(told_session("restated", user, f"{user}-s{j}", text, NOW - timedelta(days=ago), "Got it."))
    return out


def measure(cases: Sequence[Case], user_prefix: str, settings: Settings, *, verbose: bool = False) -> tuple[int, int]:
    """(restatements kept as one memory, new things kept) for ``cases``, each in its own user."""
    with tempfile.TemporaryDirectory() as tmp:
        run = settings.model_copy(update={"store_uri": tmp})
        every = sessions(cases, user_prefix)
        ingest_sessions([s for s in every if not s.session_id.endswith("-s4")], run)
        store = open_store(run)
        before = active_by_user(store)
        ingest_sessions(every, run)
        after = active_by_user(store)
        actions = _actions(store)
    restated = kept = 0
    for i, (_, second, markers) in enumerate(cases):
        user = f"{user_prefix}{i}"
        now = after.get(user, [])
        if markers:
            right = all(any(m.lower() in c.lower() for c in now) for m in markers)
            kept += right
        else:
            logged = actions.get(f"{user}-s4", set())
            right = logged <= {"IGNORE"} and len(now) == len(before.get(user, []))
            restated += right
        if verbose and not right:
            print(f"  MISS {user}: {second!r} -> {sorted(actions.get(f'{user}-s4', set()))}")
            for c in now:
                print(f"       {c}")
    return restated, kept


def measure_merge(
    cases: Sequence[Case], user_prefix: str, settings: Settings, *, merge: bool = True, verbose: bool = False
) -> tuple[int, int]:
    """The two scores after the merge pass (or before it: ``merge=False``), over a store where each case's
    second statement was kept."""
    with tempfile.TemporaryDirectory() as tmp:
        run = settings.model_copy(update={"store_uri": tmp})
        every = sessions(cases, user_prefix)
        seconds = [s for s in every if s.session_id.endswith("-s4")]
        ingest_sessions([s for s in every if s not in seconds], run)
        ingest_sessions([s.model_copy(update={"user_id": f"{s.user_id}~"}) for s in seconds], run)
        store = open_store(run)
        moved = [MemoryRow.model_validate(r) for r in store.rows(MEMORIES) if r["user_id"].endswith("~")]
        store.upsert(MEMORIES, [_moved(m) for m in moved])
        if merge:
            run_merge(run, now=NOW)
        after = active_by_user(store)
    restated = kept = 0
    for i, (_, second, markers) in enumerate(cases):
        now = after.get(f"{user_prefix}{i}", [])
        right = all(any(m.lower() in c.lower() for c in now) for m in markers) if markers else None
        if right is None:
            right = len(now) == len(BACKGROUND) + 1
            restated += right
        else:
            kept += right
        if verbose and not right:
            print(f"  MISS {user_prefix}{i}: {second!r} -> {now[len(BACKGROUND) - 1 :]}")
    return restated, kept


def _moved(memory: MemoryRow) -> MemoryRow:
    user = memory.user_id.removesuffix("~")
    memory_id = stable_id("moved", memory.memory_id)
    row_id = MemoryRow.make_row_id(memory_id, memory.version)
    return memory.model_copy(update={"user_id": user, "memory_id": memory_id, "row_id": row_id})


def told(cases: Sequence[Case], user_prefix: str, settings: Settings) -> dict[str, list[str]]:
    """Each case told as :func:`sessions` into a fresh store: the active memories of each user."""
    with tempfile.TemporaryDirectory() as tmp:
        run = settings.model_copy(update={"store_uri": tmp})
        ingest_sessions(sessions(cases, user_prefix), run)
        return active_by_user(open_store(run))


def active_by_user(store: Store) -> dict[str, list[str]]:
    """The contents of each user's active memories."""
    out: dict[str, list[str]] = {}
    for row in store.rows(MEMORIES, columns=["user_id", "status", "content"]):
        if row["status"] == "active":
            out.setdefault(row["user_id"], []).append(row["content"])
    return out


def _actions(store: Store) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for row in store.rows(CHANGES, columns=["session_id", "action"]):
        out.setdefault(row["session_id"], set()).add(row["action"])
    return out


def report_splits(
    doc: str | None,
    measure_split: Callable[..., tuple[int, int]],
    splits: tuple[Sequence[tuple[Any, ...]], Sequence[tuple[Any, ...]]],
    labels: tuple[str, str],
    argv: list[str] | None = None,
) -> None:
    """The CLI of a family whose cases end with what must no longer be told (empty when nothing changes):
    DEV's and HELD-OUT's (changes right, keeps right), DEV's misses with ``--verbose``, HELD-OUT's never."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--verbose", action="store_true", help="print DEV's misses (never HELD-OUT's)")
    args = parser.parse_args(argv)
    for name, cases, prefix in (("DEV", splits[0], "d"), ("HELD-OUT", splits[1], "h")):
        changes, keeps = measure_split(cases, prefix, Settings(), verbose=args.verbose and name == "DEV")
        n_changes = sum(1 for c in cases if c[3])
        print(f"{name}: {labels[0]} {changes}/{n_changes}; {labels[1]} {keeps}/{len(cases) - n_changes}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--verbose", action="store_true", help="print DEV's misses (never HELD-OUT's)")
    parser.add_argument("--merge", action="store_true", help="both statements stored, then the merge pass")
    args = parser.parse_args(argv)
    settings = Settings()
    for name, cases, prefix in (("DEV", DEV, "d"), ("HELD-OUT", HELD, "h")):
        if args.merge:
            stored = measure_merge(cases, prefix, settings, merge=False)
            print(f"{name} before the merge pass: restatements {stored[0]}, new things kept {stored[1]}")
            restated, kept = measure_merge(cases, prefix, settings, verbose=args.verbose and name == "DEV")
        else:
            restated, kept = measure(cases, prefix, settings, verbose=args.verbose and name == "DEV")
        n_restated = sum(1 for c in cases if not c[2])
        print(f"{name}: restatements kept as one memory {restated}/{n_restated}, "
              f"new things kept {kept}/{len(cases) - n_restated}")  # fmt: skip


if __name__ == "__main__":
    main()
