"""List-question probe: does recall show the members of a kind a person named in passing? (round 31;
cases in :mod:`evaluation.kinds_cases`)

Each conversation is ingested through the real pipeline (local extractor, speakers from the turns) into
one fresh store; every list question is recalled with and without the kinds rule
(``recall_kinds``, :mod:`tasks.recall.kinds`), on the default path and with the cross-encoder. Printed
per split and mode: the expected members the top 10 names, and the questions the rule read as a list
question. ``--show DEV`` prints DEV's misses; HELD-OUT and HELD-OUT-2 are only counted.
"""

from __future__ import annotations

import argparse
import re
import tempfile

from evaluation.attribution_probe import APP, sessions_of
from evaluation.kinds_cases import DEV, HELD, HELD_2, Conversation
from tasks.ingest.run import ingest_sessions
from tasks.recall.kinds import kind_of
from tasks.recall.recaller import Recaller
from tasks.settings import Settings

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
    splits: dict[str, list[Conversation]] = {"DEV": DEV, "HELD-OUT": HELD, "HELD-OUT-2": HELD_2}
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
