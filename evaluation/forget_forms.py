"""``python -m evaluation.forget_forms``: a forget request that names a memory by another form of its words.

Users do not repeat their own wording when they take something back: "I'm allergic to cats" is
forgotten as "my allergy", "I work as a photographer" as "my photography job" ("forget the allergy
thing" is refused by the guard on purpose: "forget the X" also dismisses a plan). Each case is
played through the real ingest (write-path runner): session 1 states facts, session 2 asks to
forget one; ``old`` must leave every active memory, ``keep`` must stay. ``dev`` cases were used
while writing the match; ``heldout`` ones were written before it and are only measured.
"""

from __future__ import annotations

from evaluation.writepath.cases import Case, Split
from evaluation.writepath.runner import WritepathMetrics, run_writepath


def _case(
    n: int, split: Split, said: tuple[str, ...], ask: str, old: tuple[str, ...], keep: tuple[str, ...] = ()
) -> Case:
    family = f"forget-forms/{split}"
    return Case(f"{family}#{n}", family, split, "forget", (said, (ask,)), old=old, keep=keep)


CASES: tuple[Case, ...] = (
    # -- developed on ------------------------------------------------------------------------------
    _case(1, "dev", ("I'm allergic to cats.", "I love long walks by the sea."), "Please forget about my allergy.",
          ("allergic",), ("walks",)),
    _case(2, "dev", ("I'm a smoker, trying to quit.",), "Forget about my smoking.", ("smoker",)),
    _case(3, "dev", ("I play the piano every evening.", "I'm planning a trip to Peru in May."),
          "Please forget my travel plans.", ("Peru",), ("piano",)),
    # -- measured only (written before the match) ------------------------------------------------------
    _case(4, "heldout", ("I'm diabetic, so I watch my sugar.",), "Please forget about my diabetes.", ("diabetic",)),
    _case(5, "heldout", ("I'm married to Tom.", "I grow tomatoes on my balcony."), "Forget the marriage stuff.",
          ("married",), ("tomatoes",)),
    _case(6, "heldout", ("I work as a photographer in Leeds.",), "Please forget my photography job.",
          ("photographer",)),
    _case(7, "heldout", ("I love going to concerts.", "I'm concerned about my grades."),
          "forget the concern about grades", ("grades",), ("concerts",)),
)  # fmt: skip


def run() -> WritepathMetrics:
    return run_writepath(cases=CASES)


def main() -> None:
    metrics = run()
    for split in ("dev", "heldout"):
        print(f"{split:8} decision {metrics.decision[split]:.1%}")
    for r in metrics.results:
        if r.split == "dev" and not r.decision_ok:
            print(f"  {r.case_id}: {r.why}")


if __name__ == "__main__":
    main()
