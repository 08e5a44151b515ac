"""Questions that name a time, end to end: "Where did I go hiking in July?" when the user hiked five times.

One user tells five things of each kind (hikes, dinners, books, purchases, visitors), each in its own
session at a different time before ``NOW``. A question names a time by a phrase; the answer is the one
told then. Similarity cannot tell the hikes apart, so without reading the time the right one is first
about one time in five. The DEV phrases were used while writing :mod:`tasks.recall.when`; the
HELD-OUT phrases were written afterwards without changing it, and are only measured (some are forms it
did not read: "over the summer"). Their run showed weekdays, seasons and larger number words unread,
so DEV-2 phrases were written for those and HELD-OUT-2 ones at the same time, before any rule; from
then on HELD-OUT counts as seen and HELD-OUT-2 is the unseen measure. NONE questions name no time and
must get no window. EMPTY questions name a time when nothing was told: recall should say "nothing is
known from then" (``RecallResult.untimely``, or not ``confident``), and not on the answerable ones.
Run ``python -m evaluation.temporal``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from evaluation.probe_modes import mode_store, shared_embedder
from tasks.ingest.run import ingest_sessions
from tasks.ingest.validate import role_of
from tasks.models import Event, Session
from tasks.recall.recaller import Recaller
from tasks.recall.when import window_of
from tasks.settings import Settings

NOW = datetime(2025, 11, 20, 18, tzinfo=UTC)  # a Thursday
#: When each of a kind's five things was told, in days before NOW.
OFFSETS = {"yesterday": 1, "last week": 9, "last month": 40, "july": 130, "march": 250}
#: (kind, what the user says, values, question): five values, one per time, rotated per kind.
KINDS = (
    ("hiking", "Went hiking in {v} today, my legs are dead.",
     ("the Dolomites", "Snowdonia", "the Tatras", "Yosemite", "the Cairngorms"), "where did I go hiking"),
    ("dinner", "We had dinner at {v} tonight and the food was great.",
     ("Dishoom", "Nopa", "Le Comptoir", "Sushi Ko", "Casa Lola"), "which restaurant did we eat at"),
    ("book", "I just finished reading {v}, loved it.",
     ("Dune", "Circe", "Piranesi", "The Overstory", "Middlemarch"), "what book did I finish"),
    ("purchase", "I finally bought a {v}.",
     ("standing desk", "road bike", "espresso machine", "kayak", "telescope"), "what did I buy"),
    ("visit", "My {v} came over to stay for a few days.",
     ("aunt", "cousin", "godmother", "uncle", "grandmother"), "who came to stay with me"),
)  # fmt: skip
#: (split, time, phrases): each phrase is asked after the question ("... in July?") and before it.
PHRASES = (
    ("dev", "yesterday", ("yesterday",)),
    ("dev", "last week", ("last week",)),
    ("dev", "last month", ("last month", "in October")),
    ("dev", "july", ("in July", "four months ago")),
    ("dev", "march", ("in March", "in March 2025")),
    ("held-out", "yesterday", ("a day ago", "on Wednesday")),
    ("held-out", "last week", ("on November 11", "in the second week of November")),
    ("held-out", "last month", ("back in October", "six weeks ago", "around mid-October")),
    ("held-out", "july", ("back in July", "in Jul.", "over the summer")),
    ("held-out", "march", ("on March 15th", "about eight months ago", "in the spring")),
    # Round 2: the first held-out run showed weekdays, seasons and larger number words unread. DEV-2 was
    # written for them, HELD-OUT-2 at the same time and before any rule; HELD-OUT is no longer unseen.
    ("dev-2", "yesterday", ("on Wednesday night",)),
    ("dev-2", "last week", ("nine days ago",)),
    ("dev-2", "july", ("this summer", "in summer")),
    ("dev-2", "march", ("last spring",)),
    ("held-out-2", "yesterday", ("on Wed", "Wednesday evening")),
    ("held-out-2", "last week", ("ten days ago",)),
    ("held-out-2", "july", ("during the summer", "back in the summer")),
    ("held-out-2", "march", ("in early spring", "during spring")),
)
#: Times when nothing was told: a question about them has no answer, and recall should say so.
EMPTY = (("dev", ("in January", "last year")), ("held-out", ("in May", "three weeks ago", "on Monday")))
#: Questions that name no time (a month that is a name or a verb, vague words, plans).
NONE = (
    ("dev", "May I ask where I went hiking?"), ("dev", "What did June recommend for dinner?"),
    ("dev", "What should I cook tonight?"), ("dev", "Which book did I like most recently?"),
    ("held-out", "What will I do in March?"), ("held-out", "Did I march in the parade?"),
    ("held-out", "What's the latest on my visa?"), ("held-out", "Tell me about August Wilson's plays."),
    ("held-out", "Where did I leave Jan's keys?"), ("held-out", "What am I doing next July?"),
    ("dev-2", "Did I have a fall on the stairs?"), ("dev-2", "What does Summer like to eat?"),
    ("held-out-2", "Who did I wed?"), ("held-out-2", "Is it sunny on Sun Valley trails?"),
    ("held-out-2", "What did I say about Spring Street?"),
)  # fmt: skip


def told_session(app: str, user: str, sid: str, text: str, at: datetime, reply: str = "Noted!") -> Session:
    """A session of one user turn said at ``at`` and the agent's reply a minute later (event ids
    ``<sid>-u`` and ``<sid>-a``): how these families' users tell things."""
    said = Event(id=f"{sid}-u", author="user", role=role_of("user", "jsonl"), text=text, timestamp=at)
    answer = Event(id=f"{sid}-a", author="agent", role=role_of("agent", "jsonl"), text=reply,
                   timestamp=at + timedelta(minutes=1))  # fmt: skip
    return Session(app_name=app, user_id=user, session_id=sid, started_at=at, ended_at=at + timedelta(minutes=1),
                   events=(said, answer))  # fmt: skip


def sessions() -> tuple[list[Session], dict[tuple[str, str], str]]:
    """The user's sessions, and the event that answers each (kind, time)."""
    out, gold = [], {}
    for k, (kind, says, values, _) in enumerate(KINDS):
        for t, (time, days) in enumerate(OFFSETS.items()):
            at = (NOW - timedelta(days=days)).replace(hour=19)
            sid = f"{kind}-{t}"
            out.append(
                told_session("when", "u1", sid, says.format(v=values[(t + k) % len(values)]), at, "Nice, noted!")
            )
            gold[(kind, time)] = f"{sid}-u"
    return out, gold


def _asked(phrases: tuple[str, ...]) -> list[tuple[str, str]]:
    """(kind, question) for each kind and phrase, the phrase after the question and before it."""
    return [
        (kind, asked)
        for kind, *_, question in KINDS
        for phrase in phrases
        for asked in (f"{question[0].upper()}{question[1:]} {phrase}?", f"{phrase[0].upper()}{phrase[1:]}, {question}?")
    ]


def measure(settings: Settings | None = None) -> dict[str, dict[str, float | int]]:
    """Top-1 and top-3 hit rates per split, with the time read (on) and without (off), and how often
    recall's verdict gives up: on answerable questions, and on times when nothing was told."""
    base = settings or Settings()
    found, gold = sessions()
    results: dict[str, dict[str, float | int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        ingest_sessions(found, base.model_copy(update={"store_uri": f"{tmp}/ingested"}))
        embedder = shared_embedder(base)
        for mode, on in (("off", False), ("on", True)):
            store = mode_store(f"{tmp}/ingested", mode)
            with Recaller(
                base.model_copy(update={"store_uri": store, "recall_time_window": on}), embedder=embedder
            ) as recaller:
                for split, time, phrases in PHRASES:
                    row = results.setdefault(f"{split} {mode}", {"asked": 0, "top1": 0, "top3": 0, "abstained": 0})
                    for kind, asked in _asked(phrases):
                        result = recaller.recall_result(asked, "when", "u1", k=3, now=NOW)
                        cited = [gold[(kind, time)] in h.source_event_ids for h in result.hits]
                        row["asked"] += 1
                        row["top1"] += bool(cited[:1] and cited[0])
                        row["top3"] += any(cited)
                        row["abstained"] += not result.confident or result.untimely is not None
                for split, phrases in EMPTY if on else ():
                    row = results.setdefault(f"{split} nothing then", {"asked": 0, "abstained": 0})
                    for _, asked in _asked(phrases):
                        row["asked"] += 1
                        result = recaller.recall_result(asked, "when", "u1", k=3, now=NOW)
                        row["abstained"] += not result.confident or result.untimely is not None
    for split in ("dev", "held-out", "dev-2", "held-out-2"):
        cases = [q for s, q in NONE if s == split]
        results[f"{split} no time"] = {"asked": len(cases), "no window": sum(window_of(q, NOW) is None for q in cases)}
    return results


def run_cli(measure_fn: Callable[[Settings | None], dict[str, dict[str, float | int]]], description: str) -> None:
    """``--json`` / ``--reranker`` and the printed table, for this family, :mod:`evaluation.anchored` and
    :mod:`evaluation.aliases`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--reranker", action="store_true", help="with the cross-encoder reranker")
    args = parser.parse_args()
    results = measure_fn(Settings(recall_reranker="cross-encoder") if args.reranker else None)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, row in results.items():
        if "top1" in row:
            gave_up = f"  abstained {row['abstained']}/{row['asked']}" if "abstained" in row else ""
            print(f"{name:16s} top-1 {row['top1']}/{row['asked']}  top-3 {row['top3']}/{row['asked']}{gave_up}")
        elif "abstained" in row:
            print(f"{name:16s} abstained {row['abstained']}/{row['asked']} (nothing was told then)")
        else:
            key = next(k for k in row if k != "asked")  # "no window", "not rewritten"
            print(f"{name:16s} {key} {row[key]}/{row['asked']}")


def main() -> None:
    run_cli(measure, __doc__.splitlines()[0])


if __name__ == "__main__":
    main()
