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


def test_the_blind_set_asks_each_question_of_one_of_its_two_people() -> None:
    """Round 42's probe set (``attribution_probe --set 2``) is well formed: what its figures count is real."""
    from evaluation.attribution_probe import conversations, sessions_of
    from tasks.recall.abstain import named_speakers

    cases = conversations(2)
    assert not {p for c in cases["DEV"] for p in c.people} & {p for c in cases["HELD"] for p in c.people}
    for conv in cases["DEV"] + cases["HELD"]:
        assert all(len(named_speakers(q, conv.people)) == 1 for q in conv.unanswerable)  # asked of the wrong one
        assert all(named_speakers(q, conv.people) for q in conv.answerable)
        sessions = sessions_of(conv, "u1")
        assert {e.author for s in sessions for e in s.events} == set(conv.people)
        assert 2 <= len(sessions) <= 4


def test_a_hyphenated_or_two_word_name_is_named_as_a_whole() -> None:
    """Found by the blind set: "How old is Mei-Lin's daughter?" named nobody, so attribution never ran."""
    from tasks.recall.abstain import named_speakers
    from tasks.recall.contrast import swapped

    assert named_speakers("How old is Mei-Lin's daughter?", ["Mei-Lin", "Bastian"]) == {"Mei-Lin"}
    assert named_speakers("Where does Anne Marie live now?", ["Anne Marie", "Bo"]) == {"Anne Marie"}
    assert named_speakers("What did Jean-Luc cook?", ["Jean", "Ana"]) == set()  # a part of a longer name
    assert swapped("How old is Mei-Lin's daughter?", "Mei-Lin", "Bastian") == "How old is Bastian's daughter?"
    hits = [
        _memory("Bastian's daughter Romy turned seven in March", ["t1"], "Bastian"),
        _memory("Mei-Lin teaches piano to kids on weekends", ["t2"], "Mei-Lin"),
    ]
    assert misattributed("How old is Mei-Lin's daughter?", hits)
    assert not misattributed("How old is Bastian's daughter?", hits)
