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
    # (4-7 were held out in round 7 and read in round 8: now developed on)
    _case(4, "dev", ("I'm diabetic, so I watch my sugar.",), "Please forget about my diabetes.", ("diabetic",)),
    _case(5, "dev", ("I'm married to Tom.", "I grow tomatoes on my balcony."), "Forget the marriage stuff.",
          ("married",), ("tomatoes",)),
    _case(6, "dev", ("I work as a photographer in Leeds.",), "Please forget my photography job.",
          ("photographer",)),
    _case(7, "dev", ("I love going to concerts.", "I'm concerned about my grades."),
          "forget the concern about grades", ("grades",), ("concerts",)),
    # Hostile (round 8): what a looser match must not delete.
    _case(20, "dev", ("My sister lives in Dublin.",), "Forget my sister's wedding plans.", (), ("Dublin",)),
    _case(21, "dev", ("I work as a nurse.", "My brother is a chef."), "Forget my brother's job.", ("chef",),
          ("nurse",)),
    _case(22, "dev", ("I love the museum of modern art.",), "Forget the museum stuff, let's go to the park instead.",
          (), ("museum",)),
    _case(24, "dev", ("I ran the Lisbon half marathon in May.", "I play chess online."),
          "Please forget about the Lisbon half marathon.", ("marathon",), ("chess",)),
    # Not scored: "forget my travel plans" also closes "my travel budget is 2000 euros" (the budget is a
    # trip's plan too; with the kind-of-thing head "plans" left out, "travel" is what names a memory).
    # -- measured only (written in round 8 before any rule change, never read while writing rules) ----
    _case(8, "heldout", ("I've been learning Japanese for two years.", "I cycle to work."),
          "Please forget about my Japanese lessons.", ("Japanese",), ("cycle",)),
    _case(9, "heldout", ("My daughter Emma starts school in September.", "I like jazz."),
          "Forget everything about my kid.", ("Emma",), ("jazz",)),
    _case(10, "heldout", ("I'm training for the Berlin marathon.",), "Forget about the marathon training.",
          ("marathon",)),
    _case(11, "heldout", ("I'm pregnant with our second child.", "I work night shifts."),
          "Please forget my pregnancy.", ("pregnant",), ("night",)),
    _case(12, "heldout", ("I was diagnosed with asthma last year.", "I drive a Honda."),
          "Forget my medical condition.", ("asthma",), ("Honda",)),
    _case(13, "heldout", ("I'm moving to Lisbon next month.", "I have two cats."),
          "Please forget about my relocation.", ("Lisbon",), ("cats",)),
    _case(14, "heldout", ("My salary is 85k a year.", "I enjoy baking bread."), "Forget what I earn.",
          ("85k",), ("baking",)),
    _case(15, "heldout", ("I'm divorced.", "I go hiking on weekends."), "please forget about my divorce",
          ("divorced",), ("hiking",)),
    _case(16, "heldout", ("I go to therapy every Tuesday.", "I collect vinyl records."),
          "forget my therapy sessions", ("therapy",), ("vinyl",)),
    _case(17, "heldout", ("I'm a recovering alcoholic.", "I love sci-fi novels."), "Forget that I'm in recovery.",
          ("alcoholic",), ("sci-fi",)),
    _case(18, "heldout", ("I'm saving up for a new car.", "My favourite band is Radiohead."),
          "forget my savings goal", ("car",), ("Radiohead",)),
    _case(19, "heldout", ("I've got a job interview at Spotify on Friday.", "I'm learning to knit."),
          "Please forget about the interview.", ("Spotify",), ("knit",)),
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
