"""Attribution when both people spoke of the same things (round 42): the named person's own words decide.

Cases written for the rule (the probe that measures it, ``python -m evaluation.attribution_probe --set 2``,
was written blind before the rule read it).
"""

from __future__ import annotations

from tasks.recall.abstain import identifying_words, misattributed, question_things
from tests.test_recall_packing import _memory


def test_the_named_persons_memory_with_every_thing_asked_answers_it() -> None:
    """Another person's memory shares the verb too, but the named person spoke of the run itself."""
    hits = [
        _memory("Ines participated in a 5K charity run for the food bank", ["t1"], "Ines"),
        _memory("Ravi set up a 5K charity run in the neighbourhood for veterans", ["t2"], "Ravi"),
    ]
    assert not misattributed("When did Ravi participate in a 5K charity run?", hits)
    assert not misattributed("When did Ines participate in a 5K charity run?", hits)


def test_one_shared_thing_is_not_enough() -> None:
    """The named person mentions the race, not the charity one: still the other person's."""
    hits = [
        _memory("Ilka ran a charity race and realized self-care matters", ["t1"], "Ilka"),
        _memory("Zora: that race sounds great", ["t2"], "Zora"),
    ]
    assert misattributed("What did Zora realize after her charity race?", hits)


def test_a_quoted_question_is_not_the_named_persons_own_words() -> None:
    """Ines entered the quilt show; Ravi was only asked about it and only looked."""
    hits = [
        _memory("Ines entered her quilt in the county quilt show and won second prize", ["t1"], "Ines"),
        _memory(
            '(Asked by Ines: "Any prize for you at the quilt show?") Ravi: no, I just went to look', ["t2"], "Ravi"
        ),
    ]
    assert misattributed("What prize did Ravi win at the quilt show?", hits)


def test_the_things_a_question_names_are_its_nouns_and_numbers() -> None:
    def things(query: str) -> frozenset[str]:
        return question_things(query, identifying_words(query) - {"ravi"})

    assert things("When did Ravi participate in a 5K charity run?") == {"5k", "charity", "run"}
    assert things("What damages have happened to Ravi's car?") == {"damag", "car"}
    assert things("What did Ravi bake on 3 March 2024?") == set()  # a date places the event, it names no thing
