"""List-question probe: does recall show the members of a kind a person named in passing? (cases in
``evaluation/cases/kinds_*.jsonl``)

Each conversation is ingested through the real pipeline (local extractor, speakers from the turns) into
one fresh store; every list question is recalled with and without the kinds rule
(``recall_kinds``, :mod:`tasks.recall.kinds`), on the default path and with the cross-encoder. Printed
per split and mode: the expected members the top 10 names, and the questions the rule read as a list
question. ``--show DEV`` prints DEV's misses; HELD-OUT and HELD-OUT-2 are only counted.

The conversations were written for the probe after the kinds rule (:mod:`tasks.recall.kinds`) was built
on LoCoMo-dev and before the rule ever read them. Each person names the members of a kind in passing ("we
landed in Porto", "my cello teacher"), rarely with the kind's own word, among chat about other things; a
list question asks for them ("Which cities has Lena visited?") and is scored by how many of the expected
members the top 10 names. The fillers (:func:`fillers`, some of them about travel, music, sport, food and
learning without naming a member) make each person's store some 40 memories, so the ten places are
contested. The fillers were enlarged once, before any rule change, when the first run showed both splits
saturated without the rule (DEV 18/19, HELD-OUT 24/24 members on the default path). HELD-OUT's questions
are worded freely ("Which languages can…", "Name the…"): wordings the rule does not read count against it.
HELD-OUT-2 was written after HELD-OUT's first run showed three of its wordings unread, before the rule was
changed for them: the split that still measures what it never saw.
The files hold each conversation as written; :func:`conversations` adds the fillers around each session.
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
from dataclasses import dataclass

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic validates only this TypedDict on Python 3.11

from evaluation.attribution_probe import APP, sessions_of
from evaluation.cases import read_cases
from tasks.ingest.run import ingest_sessions
from tasks.recall.kinds import kind_of
from tasks.recall.recaller import Recaller
from tasks.settings import Settings

Turns = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Conversation:
    people: tuple[str, str]
    #: Sessions as (ISO date, [(speaker, text), ...]).
    sessions: tuple[tuple[str, Turns], ...]
    #: (question, the members its answer lists)
    questions: tuple[tuple[str, tuple[str, ...]], ...]


class _Written(TypedDict):
    people: tuple[str, str]
    sessions: tuple[tuple[str, Turns], ...]
    questions: tuple[tuple[str, tuple[str, ...]], ...]


_WRITTEN = TypeAdapter(_Written)
_FILES = {"DEV": "kinds_dev", "HELD-OUT": "kinds_held", "HELD-OUT-2": "kinds_held2"}

_CHAT = (
    "Work has been so busy lately, I barely had time to breathe.",
    "I'm trying to drink more water and sleep earlier.",
    "The weather has been gloomy all week but I'm staying positive.",
    "My manager gave me great feedback on the quarterly report.",
    "I cleaned out the garage on Saturday, it took forever.",
    "Thanks for always listening, it really means a lot to me.",
    "Been feeling a bit tired, probably need a proper vacation.",
    "I'm so proud of how far I've come this year.",
    "I started journaling every evening before bed.",
    "The team dinner was fun, we laughed the whole night.",
    # Topic-adjacent chat that names no member of any kind (as LoCoMo's "Jon loves performing"):
    "I love exploring new places, every trip teaches me something.",
    "Packing is the worst part of any trip, I always forget something.",
    "I visited my parents last weekend, they say hi.",
    "I want to travel more before I turn forty.",
    "Music is how I unwind after a long day.",
    "Practice has been slow lately but I'm improving.",
    "I went to a concert downtown, the crowd was amazing.",
    "I've been trying to stay active this month.",
    "My team has a game coming up on Saturday.",
    "I played really badly today, so frustrating.",
    "Stretching after workouts has helped my back a lot.",
    "I made dinner for friends and everyone loved it.",
    "Baking is my favourite way to relax on a Sunday.",
    "I tried a new recipe and it was a total disaster.",
    "We went for a long walk by the lake after lunch.",
    "I saw something amazing in the park today.",
    "Gardening keeps me calm when everything else is hectic.",
    "Learning something new every week keeps me sharp.",
    "I signed up for an evening class at the library.",
    "My teacher says I'm making real progress.",
    "I've been spending more time outdoors since spring.",
    "I bought a new pair of shoes for the trip.",
)


def fillers(person: str, seed: int, n: int = 12) -> list[tuple[str, str]]:
    """``n`` turns of everyday chat by ``person``, chosen by ``seed`` (deterministic)."""
    return [(person, t) for t in random.Random(f"{person}-{seed}").sample(_CHAT, n)]


def padded(written: _Written) -> Conversation:
    """A conversation as written, each session between fillers of its two people (seeded by its place)."""
    a, b = written["people"]
    told = enumerate(written["sessions"])
    sessions = tuple((day, (*fillers(a, 2 * i), *turns, *fillers(b, 2 * i + 1))) for i, (day, turns) in told)
    return Conversation(written["people"], sessions, written["questions"])


def conversations() -> dict[str, list[Conversation]]:
    """The three splits' conversations, fillers added, in file order."""
    return {split: [padded(w) for w in read_cases(name, _WRITTEN)] for split, name in _FILES.items()}


MODES: dict[str, dict[str, object]] = {
    "default, no kinds": {"recall_reranker": "none", "recall_kinds": False},
    "default, kinds": {"recall_reranker": "none", "recall_kinds": True},
    "reranked, no kinds": {"recall_reranker": "cross-encoder", "recall_kinds": False},
    "reranked, kinds": {"recall_reranker": "cross-encoder", "recall_kinds": True},
}


def named(member: str, text: str) -> bool:
    """Whether ``text`` names ``member`` as a word (a plural too: "brownie" in "brownies")."""
    return re.search(rf"\b{re.escape(member)}(?:e?s)?\b", text, re.I) is not None


def run(show: bool = False) -> dict[str, dict[str, dict[str, int]]]:
    """Per split and mode: expected members, those in the top 10; questions, those read as list questions."""
    splits = conversations()
    results: dict[str, dict[str, dict[str, int]]] = {name: {} for name in splits}
    with tempfile.TemporaryDirectory() as tmp:
        base = Settings().model_copy(update={"store_uri": tmp})
        users = {(name, i): f"k{name.lower()}{i}" for name, convs in splits.items() for i in range(len(convs))}
        ingest_sessions([s for (name, i), u in users.items() for s in sessions_of(splits[name][i], u)], base)
        for mode, update in MODES.items():
            with Recaller(base.model_copy(update=update)) as recaller:
                for (name, i), user in users.items():
                    row = results[name].setdefault(mode, dict.fromkeys(("members", "found", "questions", "read"), 0))
                    for question, members in splits[name][i].questions:
                        shown = " ".join(h.content for h in recaller.recall(question, APP, user, k=10))
                        got = [m for m in members if named(m, shown)]
                        row["members"] += len(members)
                        row["found"] += len(got)
                        row["questions"] += 1
                        row["read"] += kind_of(question) is not None
                        if show and name == "DEV" and len(got) < len(members):
                            print(f"  {mode:20} {question}: missed {sorted(set(members) - set(got))}")
    return results


def report(results: dict[str, dict[str, dict[str, int]]]) -> None:
    print("| split | mode | members in the top 10 | read as list questions |")
    print("|---|---|---|---|")
    for name, modes in results.items():
        for mode, r in modes.items():
            print(f"| {name} | {mode} | {r['found']}/{r['members']} | {r['read']}/{r['questions']} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--show", choices=["DEV"], default=None, help="print DEV's misses")
    args = parser.parse_args(argv)
    report(run(args.show == "DEV"))


if __name__ == "__main__":
    main()
