"""A forget said in the negative is something to keep, not a request (round 32).

"Don't forget that my mom's birthday is on May 3" and "I'll never forget the day we adopted Biscuit" used
to be read as forget requests that the guard then refused, so the sentence left no memory at all. Now a
reminder reads as "Remember …" (an explicit instruction) and a statement as what it says. Which forget
requests are accepted does not change: the guard refused every sentence the negation rule matches.

DEV cases were read while the rule was written; HELD-OUT cases were written before it and run once after.
"""

from __future__ import annotations

import pytest

from tasks.consolidate.forget_guard import accept_forget
from tasks.providers.local_extractor import LocalExtractor
from tests.test_extraction import session

DEV = (("Don't forget that my mom's birthday is on May 3.", "May 3"),
       ("I'll never forget the day we adopted Biscuit.", "adopted Biscuit"),
       ("Please don't forget my appointment with Dr Lee on Monday.", "Dr Lee"),
       ("I won't forget to bring the cake on Friday.", "cake"))  # fmt: skip
HELD = (("Do not forget that I'm allergic to penicillin.", "penicillin"),
        ("We will never forget our honeymoon in Lisbon.", "Lisbon"),
        ("Don't forget about my sister's wedding in June, I'm a bridesmaid.", "wedding"),
        ("Oh and don't forget I switched to the night shift at the depot.", "night shift"),
        ("I can't forget how kind the nurses at St Mary's were.", "nurses"),
        ("Never forget: my locker code is 4471.", "4471"))  # fmt: skip
#: Genuine requests stay requests, and the guard still takes them.
REQUESTS = ("Please forget that I live in Berlin.", "Don't remember my home address anymore.")


def _told(text: str, who: str) -> tuple[list[str], list[str]]:
    asker = "agent" if who == "user" else "Ana"
    told = session((asker, "How are things going?"), (who, text))
    out = LocalExtractor().extract(told)
    accepted = [r.query for r in out.forgets if accept_forget(r, told)[0]]
    return [f.content for f in out.facts], accepted


@pytest.mark.parametrize("who", ["user", "Rui"])
@pytest.mark.parametrize(("text", "kept"), DEV + HELD)
def test_a_negated_forget_keeps_what_it_says(text: str, kept: str, who: str) -> None:
    facts, accepted = _told(text, who)
    assert any(kept in f for f in facts), facts
    assert accepted == []


def test_a_reminder_reads_as_an_instruction_to_remember() -> None:
    facts, _ = _told("Don't forget that my mom's birthday is on May 3.", "user")
    assert any(f.startswith("User asked to remember") and "May 3" in f for f in facts), facts


@pytest.mark.parametrize("text", REQUESTS)
def test_a_request_to_forget_is_still_one(text: str) -> None:
    facts, accepted = _told(text, "user")
    assert accepted, (facts, accepted)
