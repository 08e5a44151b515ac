"""Forget requests said softly, by what was told, by a marriage, and in chat shorthand (round 39).

A second blind forget probe (`python -m evaluation.forget_probe --set 2`, 80 cases by a helper that read no
rule) showed requests that deleted nothing: "I'd prefer you not retain the bankruptcy stuff I mentioned",
"It'd make me more comfortable if you didn't have the protest thing on file", "pls don't save the bit about
my dad's diagnosis", "wipe everything about my marriage", "forget whatever I said about Lena". Read now: a
soft "I'd prefer you not …" / "it'd make me more comfortable if you didn't …" is the plain "Please don't …",
a target named as something told ("the bit about …", "… I mentioned") makes "don't keep / save / retain" a
request about memory, a marriage is an area, "whatever I said about X" is X, and "pls", "plz", "rmbr" are
spelt out. DEV are my own paraphrases of the probe's DEV cases; HELD-OUT were written with them, before the
rules ran on them, and run once after (4 of 5: "the work drama I vented about" was not read as something told;
"vented / ranted / complained" joined "mentioned / told you / said / shared" after); look-alikes delete nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_forgotten_repeats import active_after

KEPT = "User loves hiking in the Alps"


def _active_after(tmp_path: Path, said: str, asked: str) -> list[str]:
    return active_after(tmp_path, said, asked, "I love hiking in the Alps.")


DEV = [
    ("I filed for bankruptcy in 2019.", "If it's okay, I'd prefer you not retain the bankruptcy stuff I mentioned."),
    ("I was arrested at a protest in Portland.", "It'd make me more comfortable if you didn't have the protest "
     "thing on file."),
    ("My dad was diagnosed with Parkinson's.", "pls don't save the bit about my dad's diagnosis"),
    ("My wife and I are in couples therapy.", "Wipe everything about my marriage."),
    ("My friend Lena is pregnant.", "Please forget whatever I said about Lena."),
]  # fmt: skip
HELD_OUT = [
    ("I owe my brother 3,000 dollars.", "I'd rather you didn't keep the part about the money I owe."),
    ("My husband Tom lost his job.", "Could you not hold on to anything about my marriage?"),
    ("I told my boss off at the Christmas party.", "It would make me feel better if you didn't keep the work "
     "drama I vented about."),
    ("My neighbour Priya is getting divorced.", "Forget whatever I told you about Priya, please."),
    ("I failed my driving test twice.", "plz dont rmbr the thing about my driving test"),
]  # fmt: skip
#: Typed fast or with a reason straight after, or after another question (round 39, from the probe's DEV):
#: "dont rmbr my loan stuff thats embarassing", "Please you can forgot about my debt", "Also don't keep the rent
#: situation in your memory". DEV paraphrases the probe's; HELD-OUT written with DEV, run once after the rules:
#: 2 of 3 ("can u forgot": "u" for "you" was read after the run).
TYPED_DEV = [
    ("I have a car loan of 20k.", "pls dont rmbr my loan stuff thats embarrassing"),
    ("I owe 12,000 euros to the bank.", "Please you can forgot about my debt?"),
    ("We got evicted from our flat last year.", "Also don't keep the eviction stuff in your memory, thanks."),
]
TYPED_HELD_OUT = [
    ("I have a tattoo of a snake on my back.", "can u forgot the tattoo pls"),
    ("My credit score is 540.", "dont rmbr my credit score its so embarrassing"),
    ("I was fired from Target in May.", "Oh and also don't keep the firing thing in your memory."),
]
#: A request with a light verb in another form than the memory's ("about me getting fired" for "User was fired
#: …"): the stem "gett" was a word the memory had to hold. DEV from the probe's DEV; HELD-OUT written with it.
LIGHT_DEV = [("I got fired from Target in May.", "Please forget about me getting fired.")]
LIGHT_HELD_OUT = [
    ("I was dumped by Chris last week.", "Can you forget about me getting dumped?"),
    ("My bike was stolen in March.", "Forget about my bike getting stolen."),
]
LOOK_ALIKES = [
    ("I wrote a report on the budget.", "Don't keep the part about the budget in the report."),
    ("My wife loves gardening.", "I'd prefer you not use emojis."),
    ("My sister's husband is a pilot.", "Forget my marriage stuff."),
]


@pytest.mark.parametrize(("said", "asked"), [*DEV, *HELD_OUT, *TYPED_DEV, *TYPED_HELD_OUT, *LIGHT_DEV, *LIGHT_HELD_OUT])
def test_a_request_said_softly_or_by_what_was_told_forgets(tmp_path: Path, said: str, asked: str) -> None:
    active = _active_after(tmp_path, said, asked)
    assert active == [KEPT], active


@pytest.mark.parametrize(("said", "asked"), LOOK_ALIKES)
def test_an_edit_an_instruction_or_someone_elses_marriage_deletes_nothing(
    tmp_path: Path, said: str, asked: str
) -> None:
    active = _active_after(tmp_path, said, asked)
    assert len(active) >= 2 and KEPT in active and any(w in " ".join(active) for w in ("report", "wife", "pilot")), (
        active
    )
