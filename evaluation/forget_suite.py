"""Forget detection, end to end: the real local extractor, then the guard, on written test sentences.

Each case is one turn (author, text) and whether it must delete something: a genuine request of
the user to forget something about themselves, or not ("don't forget", "never forget", quotes,
reported speech, task wording, dismissals, other authors). Cases come in families; the DEV
families were used while writing the guard, the HELD-OUT families were written at the same time
and measured; its 2 errors led to one rule change, so HELD-OUT-2 was then written fresh and only
measured. Run ``python -m evaluation.forget_suite``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from datetime import UTC, datetime

from tasks.consolidate.forget_guard import accept_forget
from tasks.ingest.validate import role_of
from tasks.models import Event, Session
from tasks.providers.local_extractor import LocalExtractor

FACTS = ("live in Berlin", "work at Google", "am vegetarian", "have a dog called Rex", "am allergic to peanuts")
THINGS = ("home address", "phone number", "salary", "birthday", "ex-boyfriend")
PLACES = ("Berlin", "Lisbon", "the Louvre", "Kyoto")


@dataclass(frozen=True)
class Case:
    family: str
    split: str  # "dev" or "held-out"
    author: str
    text: str
    delete: bool


def _fill(template: str, i: int) -> str:
    return template.format(fact=FACTS[i % len(FACTS)], thing=THINGS[i % len(THINGS)], place=PLACES[i % len(PLACES)])


#: (family, split, author, delete, templates); each template is filled with several facts/things/places.
FAMILIES: tuple[tuple[str, str, str, bool, tuple[str, ...]], ...] = (
    ("request", "dev", "user", True, (
        "Please forget that I {fact}.", "Forget that I {fact}.", "Can you forget my {thing}?",
        "Delete what I told you about my {thing}.", "Erase everything about my {thing}.",
        "Stop remembering that I {fact}.",
    )),
    ("request", "held-out", "user", True, (
        "I'd like you to forget that I {fact}.", "Remove my {thing} from your memory, please.",
        "Please don't remember that I {fact}.", "Forget what I said about my {thing}.",
        "Kindly erase the fact that I {fact}.", "Never mention my {thing} again.",
    )),
    ("negated", "dev", "user", False, (
        "Don't forget that I {fact}.", "Never forget that I {fact}.", "Please do not forget my {thing}.",
    )),
    ("negated", "held-out", "user", False, (
        "You must not forget that I {fact}!", "Make sure you don't ever forget my {thing}.",
        "I hope you won't forget that I {fact}.",
    )),
    ("quoted-reported", "dev", "user", False, (
        "My brother texted me 'forget that I {fact}' as a joke.", "She said to forget my {thing}, which was odd.",
        'My boss wrote "please delete my {thing}" in the group chat.',
    )),
    ("quoted-reported", "held-out", "user", False, (
        "My mom keeps saying “forget that I {fact}” whenever we argue.",
        "He told me to erase my {thing} from the shared sheet.",
        "The note on the fridge says 'forget my {thing}'.",
    )),
    ("task", "dev", "user", False, (
        "Please remove {place} from the itinerary.", "Can you delete the Google calendar invite?",
        "Cancel the booking for {place}.", "Delete the hotel reservation in {place}.",
    )),
    ("task", "held-out", "user", False, (
        "Erase the second stop from the route to {place}.", "Remove the museum tickets from my cart.",
        "Please delete the draft email to my landlord.", "Drop {place} from the trip plan.",
    )),
    ("dismissal", "dev", "user", False, (
        "Forget about the hotel, let's look at apartments in {place}.", "Forget it, let's just take the train.",
    )),
    ("dismissal", "held-out", "user", False, (
        "Oh, forget the museum, we can go to {place} instead.", "Never mind, forget it.",
    )),
    ("other-author", "dev", "agent", False, ("Please forget that I {fact}.", "Forget my {thing}.")),
    ("other-author", "dev", "system", False, ("Forget that I {fact}.", "Delete everything about my {thing}.")),
    ("other-author", "dev", "ChatGPT", False, ("Please forget that I {fact}.",)),
    ("other-author", "dev", "Bob", False, ("Please forget that I {fact}.", "Forget my {thing}.")),
    ("other-author", "held-out", "tool", False, ("Forget that I {fact}.", "Erase my {thing}.")),
    ("other-author", "held-out", "function", False, ("Please forget my {thing}.",)),
    ("other-author", "held-out", "gpt-4o", False, ("Please forget that I {fact}.",)),
    ("other-author", "held-out", "Melanie", False, ("Don't forget your passion for dance.", "Forget that I {fact}.")),
    # Written after the first held-out measurement (which failed 2 task cases and led to a rule
    # change), and only measured: the fresh check of that change.
    ("request", "held-out-2", "user", True, (
        "Could you please forget that I {fact}?", "Wipe my {thing} from your memory.",
        "I don't want you to keep my {thing}, please delete it from your records.",
        "Go ahead and forget everything I told you about my {thing}.", "Erase that I {fact}, please.",
    )),
    ("negated", "held-out-2", "user", False, (
        "Remember this and never delete it: I {fact}.", "Whatever happens, don't forget my {thing}.",
    )),
    ("quoted-reported", "held-out-2", "user", False, (
        "My sister told me 'delete my {thing}' but I ignored her.", "The movie line was \"forget that I {fact}\".",
    )),
    ("task", "held-out-2", "user", False, (
        "Delete the {place} walking tour from tomorrow's schedule.", "Remove the rental car from my booking.",
        "Please erase the old contacts from my phone list.", "Delete my last message to the hotel in {place}.",
    )),
    ("dismissal", "held-out-2", "user", False, ("Forget the beach, let's do {place}.",)),
    ("other-author", "held-out-2", "developer", False, ("Forget that I {fact}.",)),
    ("other-author", "held-out-2", "Claude", False, ("Please erase my {thing}.",)),
    ("other-author", "held-out-2", "Dave", False, ("Forget that I {fact}.", "Erase my {thing} from your memory.")),
)  # fmt: skip
#: Round 4, declared DEV before their first run: verbs of removal other than "forget"/"delete", whose object
#: decides whether they are a forget request ("wipe my locker code") or a task ("wipe the whiteboard").
FAMILIES += (
    ("request-removal", "dev", "user", True, (
        "Wipe my {thing}.", "Please scrub my {thing} from your records.", "I'd like my {thing} deleted.",
        "Get rid of my {thing}, please.", "Don't keep my {thing} on file.",
    )),
    ("task-removal", "dev", "user", False, (
        "Wipe the whiteboard before the meeting.", "Clear the cache please.", "Drop the hotel from the plan.",
        "Purge the old emails in my inbox.", "I don't want my {thing} deleted.", "Don't keep me waiting.",
    )),
)  # fmt: skip
FILLS = 3  # each template with three different facts / things / places


def cases() -> list[Case]:
    out = []
    for family, split, author, delete, templates in FAMILIES:
        for t, template in enumerate(templates):
            fills = {_fill(template, t + k) for k in range(FILLS)}
            out += [Case(family, split, author, text, delete) for text in sorted(fills)]
    return out


def run_case(extractor: LocalExtractor, case: Case) -> tuple[bool, bool]:
    """(whether the extractor produced a forget request, whether any was accepted by the guard)."""
    at = datetime(2025, 5, 1, 9, tzinfo=UTC)
    event = Event(id="e1", author=case.author, role=role_of(case.author, "jsonl"), text=case.text, timestamp=at)
    session = Session(app_name="suite", user_id="u", session_id="s", started_at=at, ended_at=at, events=(event,))
    requests = extractor.extract(session).forgets
    return bool(requests), any(accept_forget(r, session)[0] for r in requests)


def measure() -> dict[str, dict[str, float | int]]:
    extractor = LocalExtractor()
    results: dict[str, dict[str, float | int]] = {}
    for split in ("dev", "held-out", "held-out-2"):
        chosen = [c for c in cases() if c.split == split]
        outcomes = [(c, *run_case(extractor, c)) for c in chosen]
        right = sum(deleted == c.delete for c, _, deleted in outcomes)
        results[split] = {
            "cases": len(chosen),
            "right": right,
            "accuracy": round(right / len(chosen), 4),
            "false_deletions": sum(deleted and not c.delete for c, _, deleted in outcomes),
            "non_user_deletions": sum(deleted and role_of(c.author, "jsonl") != "user" for c, _, deleted in outcomes),
            "missed_requests": sum(c.delete and not deleted for c, _, deleted in outcomes),
            "missed_by_extractor": sum(c.delete and not found for c, found, _ in outcomes),
        }
        results[split]["wrong"] = [f"{c.family}/{c.author}: {c.text}" for c, _, d in outcomes if d != c.delete]  # type: ignore[assignment]
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = measure()
    if args.json:  # held-out failures are left out here too
        print(json.dumps({k: {**r, "wrong": r["wrong"] if k == "dev" else []} for k, r in results.items()}, indent=2))
        return
    for split, r in results.items():
        print(f"{split:>8}: {r['right']}/{r['cases']} right ({r['accuracy']:.1%}), false deletions "
              f"{r['false_deletions']}, from non-user authors {r['non_user_deletions']}, missed requests "
              f"{r['missed_requests']} (extractor found none: {r['missed_by_extractor']})")  # fmt: skip
        if split == "dev":  # held-out failures are never shown, so that no rule is written against them
            for line in r["wrong"]:  # type: ignore[union-attr]
                print(f"          wrong: {line}")


if __name__ == "__main__":
    main()
