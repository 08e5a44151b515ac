"""Attribution by contrast: the reranker asks the question of the other person before abstaining."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from tasks.models import RecallHit
from tasks.providers.base import Embedder
from tasks.recall.abstain import named_speakers
from tasks.recall.contrast import OTHER_DEPTH, other_fits_better, swapped
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES
from tests.test_recall import APP, NOW, USER, make_store, memory
from tests.test_recall_packing import _memory


def test_swapped_names_the_other_person_in_every_form() -> None:
    assert swapped("What did Zora's sister tell zora?", "Zora", "Ilka") == "What did Ilka's sister tell Ilka?"
    assert swapped("Did Zoran meet Zora?", "Zora", "Ilka") == "Did Zoran meet Ilka?"  # whole words only
    assert swapped("Is Ann-Marie Ann's cousin?", "Ann", "Bo") == "Is Ann-Marie Bo's cousin?"
    assert swapped("Where does Dr. J live?", "Dr. J", r"A\1") == r"Where does A\1 live?"  # no regex in names


class _Scripted:
    """Logits by passage (the question read aloud is recorded), for the selection logic alone."""

    def __init__(self, logits: dict[str, float]) -> None:
        self.logits, self.asked = logits, list[tuple[str, int]]()

    def scores(self, query: str, passages: Sequence[str]) -> npt.NDArray[np.float64]:
        self.asked.append((query, len(passages)))
        return np.asarray([self.logits.get(p, -5.0) for p in passages], dtype=np.float64)


def _reranked(hit: RecallHit, logit: float) -> RecallHit:
    return hit.model_copy(update={"score_parts": {**hit.score_parts, "rerank": logit}})


def test_the_other_persons_best_answer_must_beat_the_named_ones() -> None:
    zora = _memory("Zora ran the charity 5K", ["t1"], speaker="Zora")
    ilka = [_memory(f"Ilka note {i}", [f"u{i}"], speaker="Ilka") for i in range(OTHER_DEPTH + 5)]
    pool = [zora, *ilka]
    question = "When did Zora run the charity 5K?"
    weak = _Scripted({"Ilka note 3": 1.0, f"Ilka note {OTHER_DEPTH + 2}": 9.0})  # the deep one is not read
    assert not other_fits_better(question, pool[:10], pool, [_reranked(zora, 4.0)], weak)
    assert weak.asked == [("When did Ilka run the charity 5K?", OTHER_DEPTH)]
    strong = _Scripted({"Ilka note 3": 6.0})
    assert other_fits_better(question, pool[:10], pool, [_reranked(zora, 4.0)], strong)
    # The named person said nothing the reranker read: any answer by the other stands.
    assert other_fits_better(question, pool[:10], pool, [], weak)


def test_it_cannot_tell_so_the_word_check_stands() -> None:
    zora, ilka = _memory("Zora ran", ["t1"], speaker="Zora"), _memory("Ilka swam", ["t2"], speaker="Ilka")
    never = _Scripted({})
    both = "Did Zora and Ilka race?"
    assert other_fits_better(both, [zora, ilka], [zora, ilka], [_reranked(zora, 9.0)], never)  # two named
    user = _memory("User swam", ["t3"], speaker="user")
    assert other_fits_better("Did Zora race?", [zora, user], [zora, user], [_reranked(zora, 9.0)], never)  # a role
    assert never.asked == []


@pytest.fixture()
def two_people(settings: Settings, embedder: Embedder) -> Settings:
    store = make_store(settings, embedder)
    said = [
        ("Zora", "Zora ran a 5K for the animal shelter charity on 3 May 2024"),
        ("Zora", "Zora is learning the cello"),
        ("Ilka", '(Asked by Zora: "Have you ever done a charity 5K run?") Ilka: No, Ilka prefers swimming laps'),
        ("Ilka", "Ilka adopted a rescue greyhound called Comet"),
        ("Zora", "Zora bakes sourdough bread on Sundays"),
    ]
    store.upsert(MEMORIES, [memory(embedder, text).model_copy(update={"speaker": who}) for who, text in said])
    ensure_indexes(store, settings)
    return settings.model_copy(update={"recall_reranker": "cross-encoder"})


def test_recaller_answers_when_the_named_person_said_it(two_people: Settings, embedder: Embedder) -> None:
    question = "When did Zora run the charity 5K?"  # its words match Ilka's quoted question best
    words_only = two_people.model_copy(update={"recall_attribution_contrast": False})
    with Recaller(words_only, embedder=embedder) as recaller:
        before = recaller.recall_result(question, APP, USER, k=5, now=NOW)
    with Recaller(two_people, embedder=embedder) as recaller:
        after = recaller.recall_result(question, APP, USER, k=5, now=NOW)
        swapped_life = recaller.recall_result("What is the name of Zora's rescue greyhound?", APP, USER, k=5, now=NOW)
    assert before.misattributed and not before.confident
    assert after.confident and not after.misattributed
    assert after.hits[0].content.startswith("Zora ran a 5K")
    assert swapped_life.misattributed and not swapped_life.confident  # Ilka's greyhound is still not Zora's


def test_recaller_without_a_reranker_keeps_the_word_check(two_people: Settings, embedder: Embedder) -> None:
    plain = two_people.model_copy(update={"recall_reranker": "none"})
    with Recaller(plain, embedder=embedder) as recaller:
        result = recaller.recall_result("When did Zora run the charity 5K?", APP, USER, k=5, now=NOW)
    assert result.misattributed and not result.confident


def test_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMORY_PIPELINE_RECALL_ATTRIBUTION_CONTRAST", "false")
    assert Settings(store_uri=str(tmp_path)).recall_attribution_contrast is False


def test_attribution_probe_swaps_name_one_of_their_two_people() -> None:
    from evaluation.attribution_probe import conversations, sessions_of

    DEV, HELD = conversations(1)["DEV"], conversations(1)["HELD"]

    assert not {p for c in DEV for p in c.people} & {p for c in HELD for p in c.people}  # no shared person
    for conv in DEV + HELD:
        assert all(len(named_speakers(q, conv.people)) == 1 for q in conv.unanswerable)  # asked of the wrong one
        assert all(len(named_speakers(q, conv.people)) <= 1 for q in conv.answerable)
        sessions = sessions_of(conv, "u1")
        assert {e.author for s in sessions for e in s.events} == set(conv.people)
        assert all(s.started_at < s.ended_at for s in sessions)
