"""Questions that call someone by another name than the memory does, end to end.

A user says "my sister is learning the cello" in one session and "my sister Nora is coming for dinner"
in a later one; then asks "What instrument is Nora learning?". The answer's memory says "sister", the
question "Nora": only the tie told in between joins them, and a cousin who plays the violin is as
close to the question by meaning. The other way round, "Had coffee with Nora, she just adopted a
greyhound" is asked as "What pet did my sister adopt?". Each case is its own user, with a distractor of
the same topic about someone else. DEV cases were written before :mod:`tasks.recall.aliases` and used
while writing it; HELD-OUT cases were written at the same time, with other relations, tie forms
("Dana, my girlfriend,", "my grandfather (Arthur)", "my wife is called Maya") and question forms, and
are only measured. SAME cases have the answer in the question's own name while a tie gives it another:
the search with the other name must not lose it. NONE questions name someone with no single other name
(no tie, or a relation with two names) and must not be rewritten. Run ``python -m evaluation.aliases``.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta

from evaluation.probe_modes import mode_store
from evaluation.temporal import run_cli, told_session
from tasks.ingest.run import ingest_sessions
from tasks.models import Session
from tasks.recall.aliases import other_names
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, scope
from tasks.store.tables import MEMORIES, open_store

NOW = datetime(2025, 11, 20, 18, tzinfo=UTC)
#: (split, what the user said, one session each and in order, the question, a word only the answer has).
CASES = (
    ("dev", ("My sister is learning to play the cello, she practises every evening.",
             "My cousin plays the violin in a small orchestra.",
             "My sister Nora is coming for dinner on Friday."), "What instrument is Nora learning?", "cello"),
    ("dev", ("Had coffee with Nora yesterday, she just adopted a greyhound.",
             "Jake from work adopted a cat last month.",
             "My sister Nora is coming for dinner on Friday."), "What pet did my sister adopt?", "greyhound"),
    ("dev", ("My brother loves spicy food, especially Sichuan dishes.",
             "My neighbour only eats mild food because of his stomach.",
             "My friend Carla loves Thai food.",
             "Tom, my brother, is staying with us this week."), "What kind of food does Tom like?", "Sichuan"),
    ("dev", ("Grabbed lunch with Priya, she's moving to Toronto in the spring.",
             "My manager is moving to Berlin next year.",
             "My best friend Priya got engaged last weekend."), "Where is my best friend moving?", "Toronto"),
    ("dev", ("Our dog is scared of thunderstorms, he hides under the bed.",
             "Our neighbour's cat hates the vacuum cleaner.",
             "Took our dog Biscuit to the vet for his shots."), "What is Biscuit scared of?", "thunderstorms"),
    ("dev", ("Dinner with Marco tonight, he's allergic to peanuts so we skipped the satay.",
             "My colleague Ben is allergic to shellfish.",
             "My husband Marco booked us a trip to Lisbon."), "What is my husband allergic to?", "peanuts"),
    ("dev", ("My daughter started ballet classes on Saturdays.",
             "My niece does karate twice a week.",
             "My daughter Lily turned seven yesterday."), "What classes does Lily take?", "ballet"),
    ("dev", ("My mum has been gardening a lot, she grows tomatoes and basil.",
             "My aunt keeps bees in her garden.",
             "My mum Helen is visiting in June."), "What does Helen grow?", "tomatoes"),
    ("held-out", ("My son has a peanut allergy, we carry an EpiPen everywhere.",
                  "My nephew is allergic to cats.",
                  "We took our son, Oliver, to the zoo on Sunday."), "What is Oliver allergic to?", "EpiPen"),
    ("held-out", ("Caught up with Dana over lunch, she's training for the Berlin marathon.",
                  "My coworker Raj is training for a triathlon.",
                  "Dana, my girlfriend, surprised me with concert tickets."),
     "What is my girlfriend training for?", "marathon"),
    ("held-out", ("My grandfather served in the navy for twenty years.",
                  "My uncle was a firefighter in Leeds.",
                  "My grandfather (Arthur) turns ninety next month."), "Where did Arthur serve?", "navy"),
    ("held-out", ("Walked with Sofia this morning, she's thinking of quitting law to become a teacher.",
                  "My flatmate wants to become a pilot.",
                  "My cousin Sofia is getting married in Porto."), "What does my cousin want to become?", "teacher"),
    ("held-out", ("My wife hates flying, so we always take the train.",
                  "My boss flies to Singapore every month.",
                  "My wife is called Maya and she teaches maths."), "How does Maya feel about flying?", "hates"),
    ("held-out", ("Our cat keeps knocking plants off the windowsill.",
                  "The neighbour's dog barks at every delivery driver.",
                  "Our cat Pixel had her check-up today."), "What does Pixel keep doing?", "windowsill"),
    ("held-out", ("Had a call with Leo, he finally got the job at the hospital.",
                  "My friend Nina works at a bank.",
                  "My brother Leo is flying in for Christmas."), "Where does my brother work now?", "hospital"),
    ("held-out", ("My dad is into woodworking, he built our dining table.",
                  "My father-in-law restores old cars.",
                  "My dad, Frank, is retiring in May."), "What hobby does Frank have?", "woodworking"),
)  # fmt: skip
#: (split, what the user said, question, answer's word): the answer says the question's own name, and a
#: tie gives it another; the search with the other name must not lose it.
SAME = (
    ("dev", ("Had coffee with Nora, she just adopted a greyhound.", "My cousin adopted a rabbit in spring.",
             "My sister Nora is coming for dinner on Friday."), "What pet did Nora adopt?", "greyhound"),
    ("dev", ("My brother is learning to surf in Cornwall.", "Went climbing with Tom, he's great on overhangs.",
             "Tom, my brother, is staying with us this week."), "What is my brother learning?", "surf"),
    ("held-out", ("Lunch with Dana, she's switching teams at work to join the data group.",
                  "My friend Raj changed jobs in May.", "Dana, my girlfriend, surprised me with concert tickets."),
     "Which team is Dana joining?", "data"),
    ("held-out", ("Our cat hates the new litter box.", "Our cat Pixel loves sleeping on the radiator.",
                  "My neighbour's dog hates the rain."), "What does our cat hate?", "litter"),
)  # fmt: skip
#: (split, what the user said, question, whether it is rewritten): a name with no tie, a relation with
#: two names and one with none are not. The fourth was written as one that is not, in error: the user has
#: one sister, Nora, so "my sister's favourite dish" is rightly asked of Nora too.
NONE = (
    ("dev", ("My friend Carla loves Thai food.", "My friend Tom loves Sichuan food."),
     "What food does my friend like?", False),
    ("dev", ("Jake from work adopted a cat last month.",), "What pet did Jake adopt?", False),
    ("held-out", ("My brother Leo is flying in for Christmas.", "My brother Sam lives in Oslo."),
     "When is my brother flying in?", False),
    ("held-out", ("My sister Nora is coming for dinner on Friday.",), "What is my sister's favourite dish?", True),
    ("held-out", ("Our cat Pixel had her check-up today.",), "How is my dog doing?", False),
)  # fmt: skip


def _sessions(user: str, texts: tuple[str, ...]) -> list[Session]:
    """One session per text, ten days apart, ending a week before NOW."""
    out = []
    for i, text in enumerate(texts):
        at = NOW - timedelta(days=7 + 10 * (len(texts) - i))
        out.append(told_session("names", user, f"{user}-s{i}", text, at))
    return out


def _memories(store: str, user: str) -> list[dict[str, str]]:
    """The user's active memories, read as the write path left them."""
    where = all_of(scope("names", user), eq("status", "active", ("status",)))
    return list(open_store(Settings(store_uri=store)).rows(MEMORIES, where, columns=["content"]))


def measure(settings: Settings | None = None) -> dict[str, dict[str, float | int]]:
    """Per split, with another name read (on) and not (off): is the answer's memory first, in the top 3?"""
    base = settings or Settings()
    found = [s for i, (_, texts, _, _) in enumerate(CASES) for s in _sessions(f"c{i}", texts)]
    found += [s for i, (_, texts, _, _) in enumerate(NONE) for s in _sessions(f"n{i}", texts)]
    found += [s for i, (_, texts, _, _) in enumerate(SAME) for s in _sessions(f"m{i}", texts)]
    results: dict[str, dict[str, float | int]] = {}
    with tempfile.TemporaryDirectory() as root:
        store = f"{root}/store"
        ingest_sessions(found, base.model_copy(update={"store_uri": store}))
        for mode, on in (("off", False), ("on", True)):
            copy = mode_store(store, mode)
            with Recaller(base.model_copy(update={"store_uri": copy, "recall_known_names": on})) as recaller:
                asked = [(f"{split}", f"c{i}", q, w) for i, (split, _, q, w) in enumerate(CASES)]
                asked += [(f"{split} same", f"m{i}", q, w) for i, (split, _, q, w) in enumerate(SAME)]
                for split, user, question, word in asked:
                    row = results.setdefault(f"{split} {mode}", {"asked": 0, "top1": 0, "top3": 0})
                    hits = recaller.recall(question, "names", user, k=3, now=NOW)
                    said = [word.lower() in h.content.lower() for h in hits]
                    row["asked"] += 1
                    row["top1"] += bool(said[:1] and said[0])
                    row["top3"] += any(said)
        for i, (split, _, question, rewritten) in enumerate(NONE):
            row = results.setdefault(f"{split} others", {"asked": 0, "as expected": 0})
            contents = [r["content"] for r in _memories(store, f"n{i}")]
            row["asked"] += 1
            row["as expected"] += bool(other_names(question, contents)) == rewritten
    return results


def main() -> None:
    run_cli(measure, __doc__.splitlines()[0])


if __name__ == "__main__":
    main()
