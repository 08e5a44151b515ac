"""Attribution probe: in a conversation between two people, does recall answer what one of them said
and abstain when the question asks it of the other? (cases in ``evaluation/cases/attribution_set*.jsonl``)

Each conversation is ingested through the real pipeline (local extractor, speakers from the turns) into
one fresh store, then every question is recalled in three modes: the default path (word check only),
the cross-encoder with the word check only, and the cross-encoder with the contrast
(:mod:`tasks.recall.contrast`). Printed per split: answerable questions answered, unanswerable ones
answered anyway (lower is better). ``--show DEV`` prints DEV's verdicts; HELD-OUT is only counted.

Set 1 (``--set 1``): four conversations written for the probe, questions about what each person said and the
same asked of the wrong person. Set 2 ("both talked of it"), written blind by a helper before any rule read it:
in each conversation both people talk of the same objects, places, events or hobbies in different roles (one
hosted the quiz night, the other's team played in it; one plans what the other already did). Answerable
questions ask, by name, what a person's own words answer, often with a verb that person did not use or nouns
the other said too; unanswerable ones ask the same of the other person, whose own words do not answer it
(they asked about it, reacted to it, only plan it, or did something different with it). The splits share no
topics. One conversation a line, with its split ("DEV" or "HELD").
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal, Protocol

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic validates only this TypedDict on Python 3.11

from evaluation.cases import read_cases
from tasks.ingest.run import ingest_sessions
from tasks.models import Event, Session
from tasks.recall.recaller import Recaller
from tasks.settings import Settings


@dataclass(frozen=True)
class Conversation:
    people: tuple[str, str]
    #: Sessions as (ISO date, [(speaker, text), ...]).
    sessions: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    answerable: tuple[str, ...]
    unanswerable: tuple[str, ...]


class _Row(TypedDict):
    split: Literal["DEV", "HELD"]
    people: tuple[str, str]
    sessions: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    answerable: tuple[str, ...]
    unanswerable: tuple[str, ...]


_ROW = TypeAdapter(_Row)


def conversations(case_set: int = 1) -> dict[str, list[Conversation]]:
    """One set's conversations by split ("DEV", "HELD"), in file order."""
    if case_set not in (1, 2):
        raise ValueError(f"unknown attribution set {case_set}; one of 1, 2")
    out: dict[str, list[Conversation]] = {"DEV": [], "HELD": []}
    for row in read_cases(f"attribution_set{case_set}", _ROW):
        conversation = Conversation(row["people"], row["sessions"], row["answerable"], row["unanswerable"])
        out[row["split"]].append(conversation)
    return out


APP = "attribution-probe"
MODES: dict[str, dict[str, object]] = {
    "default": {"recall_reranker": "none"},
    "reranked, words only": {"recall_reranker": "cross-encoder", "recall_attribution_contrast": False},
    "reranked, contrast": {"recall_reranker": "cross-encoder", "recall_attribution_contrast": True},
}


class Talk(Protocol):
    """A probe's conversation: sessions as (ISO date, [(speaker, text), ...])."""

    @property
    def sessions(self) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]: ...


def sessions_of(conv: Talk, user: str) -> list[Session]:
    """The conversation's sessions, turns a minute apart from noon of each date."""
    out = []
    for n, (day, turns) in enumerate(conv.sessions, start=1):
        start = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
        events = tuple(
            Event(id=f"{user}-s{n}-{i}", author=who, role="other", text=text, timestamp=start + timedelta(minutes=i))
            for i, (who, text) in enumerate(turns)
        )
        out.append(Session(app_name=APP, user_id=user, session_id=f"{user}-s{n}", started_at=start,
                           ended_at=events[-1].timestamp, events=events))  # fmt: skip
    return out


#: The case sets: 1, round 30's; 2, round 42's "both talked of it" (each person speaks of the same things).
SETS = (1, 2)


def run(show: bool = False, case_set: int = 1) -> dict[str, dict[str, dict[str, int]]]:
    """Per split and mode: answerable questions, answered; unanswerable questions, answered anyway."""
    cases = conversations(case_set)
    splits = {"DEV": cases["DEV"], "HELD-OUT": cases["HELD"]}
    results: dict[str, dict[str, dict[str, int]]] = {name: {} for name in splits}
    with tempfile.TemporaryDirectory() as tmp:
        base = Settings().model_copy(update={"store_uri": tmp})
        users = {(name, i): f"{name[0].lower()}{i}" for name, convs in splits.items() for i in range(len(convs))}
        ingest_sessions([s for (name, i), u in users.items() for s in sessions_of(splits[name][i], u)], base)
        for mode, update in MODES.items():
            with Recaller(base.model_copy(update=update)) as recaller:
                for (name, i), user in users.items():
                    row = results[name].setdefault(mode, dict.fromkeys(("ans", "ans_ok", "un", "un_answered"), 0))
                    conv = splits[name][i]
                    asked = [(q, True) for q in conv.answerable] + [(q, False) for q in conv.unanswerable]
                    for question, answerable in asked:
                        confident = recaller.recall_result(question, APP, user, k=10).confident
                        row["ans" if answerable else "un"] += 1
                        row["ans_ok" if answerable else "un_answered"] += confident
                        if show and name == "DEV" and confident != answerable:
                            kind = "answerable" if answerable else "swapped"
                            print(f"  {mode:22} {kind:10} wrong: {question}")
    return results


def report(results: dict[str, dict[str, dict[str, int]]]) -> None:
    print("| split | mode | answerable answered | unanswerable answered anyway |")
    print("|---|---|---|---|")
    for name, modes in results.items():
        for mode, r in modes.items():
            print(f"| {name} | {mode} | {r['ans_ok']}/{r['ans']} | {r['un_answered']}/{r['un']} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--show", choices=["DEV"], default=None, help="print DEV's wrong verdicts")
    parser.add_argument("--set", type=int, choices=SETS, default=1, help="which case set (default 1)")
    args = parser.parse_args(argv)
    report(run(args.show == "DEV", args.set))


if __name__ == "__main__":
    main()
