"""Said again: an opener that only says the user repeats themselves ("Again, …", "Once again: …", "As always,
…", "To repeat, …") leaves the same memory as the sentence without it, as "As I said, …" already did.

Cases written before the rule (round 37): DEV read while writing it, HELD-OUT run once after. Before it,
"Again, please, nothing in the evenings." left no memory and the others read "User mentioned that once
again: …".
"""

from __future__ import annotations

import pytest

from evaluation.wording import memories_of

DEV = [
    ("Again, please, nothing in the evenings.", "Please, nothing in the evenings."),
    ("Once again: no calls after 9pm, please.", "No calls after 9pm, please."),
    ("As always, I'd like the vegetarian option.", "I'd like the vegetarian option."),
    ("To repeat, my email is dana@site.org.", "My email is dana@site.org."),
    ("Once again, I'm allergic to peanuts.", "I'm allergic to peanuts."),
    ("As usual, I'll take the aisle seat.", "I'll take the aisle seat."),
    ("Just to repeat: I work nights, so no calls before noon.", "I work nights, so no calls before noon."),
]
HELD_OUT = [
    ("Again, my budget is 500 euros.", "My budget is 500 euros."),
    ("Once more, I don't eat pork.", "I don't eat pork."),
    ("As ever, I prefer trains to planes.", "I prefer trains to planes."),
    ("To reiterate, please don't call me before 10.", "Please don't call me before 10."),
    ("As usual: aisle seat, please.", "Aisle seat, please."),
    ("Repeating myself, but I'm lactose intolerant.", "I'm lactose intolerant."),
]

#: Said without the opener, these leave no memory either (found by this file's first run).
PLAIN_NOT_READ = {"Aisle seat, please."}


@pytest.mark.parametrize(("again", "once"), DEV + HELD_OUT)
def test_said_again_is_said(again: str, once: str) -> None:
    if once not in PLAIN_NOT_READ:
        assert memories_of(once)
    assert memories_of(again) == memories_of(once)


#: "Same as usual for X - Y": a choice said again in short, read as "I want Y for X" (round 37, written before
#: the rule; the synthetic set says "Same as usual for the seat - window." and left it unstored).
SAME_AS_DEV = [
    ("Same as usual for the seat - window.", ("window", "seat")),
    ("Same as always for the hotel: a quiet room.", ("quiet room", "hotel")),
    ("Same as last time for dessert - the cheesecake.", ("cheesecake", "dessert")),
]
SAME_AS_HELD_OUT = [
    ("Same as before for the rental car - automatic.", ("automatic", "rental car")),
    ("Same as usual for my coffee: oat milk, no sugar.", ("oat milk", "coffee")),
    ("Same as always for the pizza - extra olives.", ("extra olives", "pizza")),
    ("Same as last time for the haircut: short on the sides.", ("short on the sides", "haircut")),
]


@pytest.mark.parametrize(("said", "words"), SAME_AS_DEV + SAME_AS_HELD_OUT)
def test_same_as_usual_for_a_thing_is_the_choice(said: str, words: tuple[str, str]) -> None:
    kept = memories_of(said)
    assert kept.startswith("User wants") and all(w in kept for w in words)


@pytest.mark.parametrize("said", ["Same as usual, nothing new here.", "Same as usual - nothing to report.",
                                  "Same as last time for me - no complaints."])  # fmt: skip
def test_same_as_usual_without_a_choice_is_none(said: str) -> None:
    assert "wants" not in memories_of(said)
