"""A participant's encouragement or praise of the other person is no memory: "Glad you made some new family
mems.", "Keep up the great work!", "You're so inspiring for wanting to help others", "Your kind words mean a
lot.", "Sounds like you and the kids had a blast." (round 43: 58 of LoCoMo-dev's 1,383 memories were one such
sentence and nothing else). A sentence that says something about the speaker, a third person or a thing is kept.

DEV: LoCoMo-dev's own remarks, read while writing the rule. HELD-OUT: written before it, run once after (6 of 6
and the 7 look-alikes kept on the first run; one of the six, advice to go on, is a look-alike since, see KEPT).
"""

from __future__ import annotations

import pytest

from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.reactions import is_social
from tests.test_extraction import session

REMARKS_DEV = [
    "Glad you made some new family mems.",
    "Keep up the great work!",
    "You're so inspiring for wanting to help others with their mental health.",
    "Your kind words mean a lot.",
    "Sounds like you and the kids had a blast.",
    "You really put in the work and it definitely shows.",
]
#: Left as a memory: longer than the 12 words a remark may have ("Glad it all worked out and you had a good time at
#: the park!", 13), as round 29's social remarks.
REMARKS_HELD_OUT = [
    "Glad the interview went well for you!",
    "You're so brave for speaking up like that.",
    "Your encouragement means the world.",
    "Sounds like you two had an amazing weekend.",
    "You nailed that presentation!",
]
#: Look-alikes that tell something: the speaker's own news, advice with its facts, someone else's doing. Advice to
#: go on is kept as said, as round 34's "Keep pushing, you're almost at the finish line!" (`test_participant_advice`):
#: "Keep at it" was a HELD-OUT remark on the rule's first run (dropped), moved here when that older test failed.
KEPT = [
    "Keep at it, the marathon's only weeks away!",
    "Keep going for your dreams and don't quit!",
    "Glad to report I finally passed my driving test.",
    "Keep in mind the trail closes at 6 in winter.",
    "Your brother called about the barbecue on Saturday.",
    "You should try the ramen place on Dean Street, it's the best in town.",
    "Sounds like a plan, I'll book the cabin for the 12th.",
    "You're welcome to stay at our cabin in Tahoe any time.",
    "Love the new Radiohead album, it's on repeat at my place.",
]


@pytest.mark.parametrize("text", REMARKS_DEV + REMARKS_HELD_OUT)
def test_a_remark_to_the_other_person_is_social(text: str) -> None:
    assert is_social(text)


@pytest.mark.parametrize("text", KEPT)
def test_a_sentence_that_tells_something_is_not(text: str) -> None:
    assert not is_social(text)


def test_the_remark_leaves_no_memory_and_the_news_after_it_stays() -> None:
    told = session(("Nadia", "Keep up the great work!"),
                   ("Nadia", "Glad you bonded over nature. I went to a council meeting about the park."))  # fmt: skip
    facts = [f.content for f in LocalExtractor().extract(told).facts]
    assert facts == ["Nadia went to a council meeting about the park."]
