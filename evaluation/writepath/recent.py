"""The write-path families added in rounds 8 and 9 (plans called off; the people in a user's life),
kept apart so that each module stays short; :mod:`evaluation.writepath.cases` appends them in this order."""

from __future__ import annotations

from evaluation.writepath.builders import cancel_case
from evaluation.writepath.model import Family
from evaluation.writepath.people_builders import (
    done_case,
    mention_case,
    other_negation_case,
    person_case,
    person_change_case,
)

RECENT_FAMILIES: tuple[Family, ...] = (
    # -- round 8: a plan called off. DEV used while writing the cue; HELD-OUT written after the rule and
    # only measured (the rule was not changed after its first run).
    Family(
        "cancel/called-off",
        "dev",
        "change",
        cancel_case("{What} got cancelled.", "We cancelled {what}.", "{What} was called off."),
    ),
    Family(
        "cancel/fell-through",
        "heldout",
        "change",
        cancel_case(
            "Bad news: {what} fell through.",
            "I had to cancel {what}.",
            "Heads up, {what} is cancelled now.",
            "{What} has been scrapped, sadly.",
        ),
    ),
    # -- round 9: someone the user named in an earlier session. DEV used while writing the rule;
    # HELD-OUT written with it, before its first run, and only measured.
    Family(
        "people/named-before",
        "dev",
        "fact",
        person_case(
            (
                "I'm organising a dinner for my {rel} {name}'s birthday.",
                "My {rel} {name} is coming to stay with us.",
                "I'm taking my {rel} {name} to the coast next month.",
            ),
            ("{name} {pred}.", "{name} {pred}, so keep that in mind.", "Also, {name} {pred}."),
        ),
    ),
    Family(
        "people/named-before-other-forms",
        "heldout",
        "fact",
        person_case(
            (
                "{name}, my {rel}, is visiting next week.",
                "We're hosting my {rel}, {name}, over Easter.",
                "I need a gift idea for my {rel} {name}.",
            ),
            (
                "Just so you know, {name} {pred}.",
                "Oh and {name} {pred} now.",
                "{name} {pred}, by the way.",
                "Quick update: {name} {pred}.",
            ),
        ),
    ),
    Family("people/their-change", "dev", "change", person_change_case()),
    Family("people/named-in-passing", "dev", "fact", mention_case()),
    Family(
        "people/named-in-passing-other-forms",
        "heldout",
        "fact",
        mention_case(heldout=True),
    ),
    Family(
        "people/their-change-other-forms",
        "heldout",
        "change",
        person_change_case(
            ("{name}, my {rel}, {verb} {old}.",),
            ("Update on {name}: moved over to {new}.", "{name} has switched to {new}.", "{name} went {new} recently."),
        ),
    ),
    # -- round 9: a duty done. DEV used while writing the rule; HELD-OUT written with it, only measured.
    Family(
        "done/past-tense",
        "dev",
        "change",
        done_case(
            ("I need to {todo} before June.", "I have to {todo} this week.", "I'm going to {todo} at the weekend."),
            ("{Done} today.", "I {done}.", "{Done}, finally."),
        ),
    ),
    Family(
        "done/past-tense-other-forms",
        "heldout",
        "change",
        done_case(
            ("Remind me to {todo} sometime.", "I should {todo} soon.", "Must {todo} before the holidays."),
            ("Just {done} - done!", "{Done}, tick that off.", "Finally {done} this morning."),
        ),
    ),
    # -- round 9: what a friend can't do leaves the plan. DEV used while writing; HELD-OUT only measured.
    Family(
        "negation/someone-else",
        "dev",
        "fact",
        other_negation_case(
            (
                (
                    "Me and my friends {a} and {b} are doing a road trip to {place} in May.",
                    "{a} can't drive, so it's me and {b} driving.",
                ),
                ("We're going to {place} in June with {a} and {b}.", "{b} can't come to the first night, sadly."),
            )
        ),
    ),
    Family(
        "negation/someone-else-other-forms",
        "heldout",
        "fact",
        other_negation_case(
            (
                ("{a}, {b} and I booked a week in {place}.", "{a} can't swim, so no kayaking for us."),
                ("I'm off to {place} with {a} and {b} in the autumn.", "{b} can't take the Friday off work."),
            )
        ),
    ),
)
