"""Things going on at once, told over sessions: a "now" or "lately" must not close an unrelated memory.

Users tell many current states with a cue word: "I'm reading a lot of sci-fi these days", then "I've
been sleeping badly lately", then "I'm obsessed with sourdough at the moment". A cue word says when,
not what changed; read as a change, each closed the one before it (a recall probe of round 16 found
"fully vegetarian now" closing "learning Japanese"). Each user tells twenty things, one session each,
four days apart; three of them do change an earlier one ("I play squash on Tuesday nights now, gave up
badminton"). Counted: false supersessions (an UPDATE or DELETE of a memory that no statement changes)
and real changes found. DEV and HELD-OUT were written together before any change; DEV's failures were
read, HELD-OUT's never. Run ``python -m evaluation.going_on``.
"""

from __future__ import annotations

import argparse
import tempfile
from datetime import UTC, datetime, timedelta

from evaluation.temporal import told_session
from tasks.ingest.run import ingest_sessions
from tasks.settings import Settings
from tasks.store.tables import CHANGES, MEMORIES, open_store

NOW = datetime(2026, 10, 1, 12, tzinfo=UTC)
#: (what the user said, the index of the earlier statement it changes, or None).
DEV = (
    ("I play badminton on Tuesday nights.", None),
    ("My son is learning the piano, he practises every day.", None),
    ("I'm reading a lot of sci-fi these days.", None),
    ("I've been sleeping badly lately, maybe four hours a night.", None),
    ("We get our veg box delivered every Friday.", None),
    ("I'm currently training for a 10k in November.", None),
    ("My wife works as a pharmacist.", None),
    ("I'm doing the school run most mornings now.", None),
    ("I take vitamin D every morning.", None),
    ("I'm obsessed with sourdough at the moment.", None),
    ("I'm on a no-sugar challenge this month.", None),
    ("Our cat is 14 now, getting a bit slow.", None),
    ("I go to the library every Saturday with the kids.", None),
    ("I'm working from home three days a week now.", None),
    ("I play squash on Tuesday nights now, gave up badminton.", 0),
    ("I'm mostly reading history books these days.", 2),
    ("I've started cycling to work, twice a week.", None),
    ("My daughter has swimming lessons on Wednesdays.", None),
    ("I'm learning to knit lately.", None),
    ("I'm sleeping much better now, about seven hours.", 3),
)  # fmt: skip
HELD = (
    ("I volunteer at the food bank on Sundays.", None),
    ("My husband is a firefighter, he works 24 hour shifts.", None),
    ("I'm really into podcasts these days, mostly true crime.", None),
    ("I've been getting migraines lately, about once a week.", None),
    ("I water the plants every other day.", None),
    ("I'm saving for a deposit on a flat right now.", None),
    ("My mum lives with us now.", None),
    ("I'm doing Dry January this year.", None),
    ("I walk the dog twice a day.", None),
    ("I'm currently on a waiting list for physio.", None),
    ("My brother is studying law in Edinburgh.", None),
    ("I drink two coffees a day.", None),
    ("We have pizza night every Friday.", None),
    ("I'm growing my hair out at the moment.", None),
    ("I'm into audiobooks now rather than podcasts.", 2),
    ("I finally got a physio appointment, the waiting is over.", 9),
    ("I've started yoga, once a week on Thursdays.", None),
    ("My son plays rugby on Saturday mornings.", None),
    ("I'm learning Italian lately.", None),
    ("I drink just one coffee a day now.", 11),
)  # fmt: skip
SPLITS = {"dev": DEV, "held-out": HELD}


def measure(settings: Settings | None = None) -> dict[str, dict[str, int]]:
    """Per split: false supersessions, real changes found, real changes told."""
    results: dict[str, dict[str, int]] = {}
    for split, facts in SPLITS.items():
        with tempfile.TemporaryDirectory() as tmp:
            mode = (settings or Settings()).model_copy(update={"store_uri": tmp})
            told = [
                told_session("going", split, f"{split}-{i}", text, NOW - timedelta(days=4 * (len(facts) - i)), "Noted!")
                for i, (text, _) in enumerate(facts)
            ]
            ingest_sessions(told, mode)
            store = open_store(mode)
            first = {
                m["memory_id"]: m["source_session_id"]
                for m in store.rows(MEMORIES, columns=["memory_id", "version", "source_session_id"])
                if m["version"] == 1
            }
            index = {f"{split}-{i}": i for i in range(len(facts))}
            found, false = set(), 0
            for change in store.rows(CHANGES, columns=["action", "memory_id", "session_id"]):
                if change["action"] not in ("UPDATE", "DELETE"):
                    continue
                by, of = index.get(change["session_id"]), index.get(first.get(change["memory_id"], ""))
                if by is not None and of is not None and facts[by][1] == of:
                    found.add(by)
                else:
                    false += 1
            real = {i for i, (_, changes) in enumerate(facts) if changes is not None}
            results[split] = {"false supersessions": false, "changes found": len(found & real), "changes": len(real)}
    return results


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    for split, row in measure().items():
        print(f"{split:10s} false supersessions {row['false supersessions']}  "
              f"changes found {row['changes found']}/{row['changes']}")  # fmt: skip


if __name__ == "__main__":
    main()
