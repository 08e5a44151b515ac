"""The first-person family (``python -m evaluation.first_person``): the statement form must pay."""

from __future__ import annotations

import pytest

from evaluation.first_person import first_person, measure
from tasks.settings import Settings


def test_synthetic_questions_are_asked_in_the_first_person() -> None:
    assert first_person("What does the user like to drink?") == "What do I like to drink?"
    assert first_person("What is the name of the user's pet?") == "What is the name of my pet?"
    assert first_person("What should the assistant call the user?") == "What should the assistant call me?"


@pytest.mark.slow
def test_the_statement_form_keeps_answers_the_question_alone_abstained_on() -> None:
    """Asked in the first person, 29 of 78 answerable synthetic questions abstained on the question's
    vector alone, 4 with its statement form; the probe's DEV users, 6 of 26 and 0."""
    plain, said = measure(Settings(recall_statement_query=False), Settings())
    for name in ("dev", "held-out", "synthetic first person"):
        assert said[name]["abstained"] < plain[name]["abstained"], name
    assert said["synthetic first person"]["abstained"] <= 0.05 * said["synthetic first person"]["asked"] + 1
    assert said["dev"]["top3"] >= plain["dev"]["top3"] - 1 and said["dev"]["top1"] >= plain["dev"]["top1"]
