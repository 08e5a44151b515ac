"""Someone the user named in an earlier session: "Tom is allergic to shellfish" is about the user's brother.

Real LanceDB on tmp_path for the ingest paths; the LLM path through the local OpenAI-compatible stub.
"""

from __future__ import annotations

import json
from pathlib import Path

from tasks.control.edit import delete_memory
from tasks.ingest.people import known_people
from tasks.ingest.run import ingest_sessions
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.openai_extractor import OpenAIExtractor
from tasks.providers.people import as_first_person, mentioned, named_lead, ties
from tasks.settings import Settings
from tasks.store.tables import MEMORIES, open_store
from tests.llm_stub import LLMStub, make_session, plausible_chat, stub_settings


def _active(settings: Settings) -> list[str]:
    return [r["content"] for r in open_store(settings).rows(MEMORIES) if r["status"] == "active"]


def test_ties_said_in_a_turn_in_the_usual_forms() -> None:
    said = [
        "I'm organising a dinner for my brother Tom's birthday.",
        "Dmitri, my cousin, is visiting next week.",
        "We're hosting my sister, Ann, over Easter.",
        "My dog (Rex) is getting old.",
        "Our daughter is called Mia.",
        "My team lead Priya wants everything typed.",  # the relation as said, its last word a relation
    ]
    assert ties(said) == {
        "Tom": "brother", "Dmitri": "cousin", "Ann": "sister", "Rex": "dog", "Mia": "daughter", "Priya": "team lead"
    }  # fmt: skip
    assert ties(["My big project Atlas is late."]) == {}


def test_what_is_not_a_tie() -> None:
    assert (
        ties(["My favourite Italian place closed.", "I met my boss Tom Hanks today."]) == {}
    )  # not a relation; a full name
    assert ties(["My brother Sam visited.", "My friend Sam is moving."]) == {}  # one name, two people: ambiguous
    assert ties(["Anyway my friend So-and-so said hi"]) == {}


def test_ties_stated_by_memories_of_one_owner() -> None:
    memories = ["User is organising a dinner for User's brother Tom's birthday.", "Lena's sister Mia is a nurse."]
    assert ties(memories, owner="User") == {"Tom": "brother"}


def test_the_extractor_ties_a_later_statement_to_the_relation() -> None:
    session = make_session("s2", [("user", "Tom is allergic to shellfish, so no prawns."), ("agent", "Noted.")])
    extractor = LocalExtractor()
    assert [f.content for f in extractor.extract(session, {"Tom": "brother"}).facts] == [
        "User's brother Tom is allergic to shellfish, so no prawns."
    ]
    assert extractor.extract(session).facts == []  # alone it reads as chit-chat about someone else


def test_a_full_name_is_someone_else() -> None:
    session = make_session("s2", [("user", "Tom Hanks was great in that film last night.")])
    contents = [f.content for f in LocalExtractor().extract(session, {"Tom": "brother"}).facts]
    assert not any("brother" in c for c in contents)


def test_ingest_ties_across_runs_and_within_one_batch(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([make_session("s1", [("user", "I'm taking my daughter Nora to the coast next month.")])], settings)
    ingest_sessions([make_session("s2", [("user", "Nora can't eat dairy, so pack snacks.")], day=1)], settings)
    assert "User's daughter Nora can't eat dairy, so pack snacks." in _active(settings)
    # A backfill: both sessions of another user in one run, the tie said in the earlier one.
    first = make_session("b1", [("user", "My partner Sam is coming along.")], user="bob")
    later = make_session("b2", [("user", "Sam is gluten-free these days.")], day=2, user="bob")
    ingest_sessions([later, first], settings)  # out of order on input: sessions are read by their time
    assert "User's partner Sam is gluten-free these days." in _active(settings)


def test_an_erased_tie_ties_nothing(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([make_session("s1", [("user", "My brother Tom is coming to stay with us.")])], settings)
    [row] = open_store(settings).rows(MEMORIES)
    later = make_session("s2", [("user", "Tom hates loud restaurants.")], day=1)
    assert known_people([later], settings) == [{"Tom": "brother"}]
    delete_memory(settings, row["row_id"])
    assert known_people([later], settings) == [{}]


def test_the_llm_extractor_is_told_the_known_people(llm_stub: LLMStub, tmp_path: Path) -> None:
    llm_stub.chat_default = plausible_chat
    settings = stub_settings(llm_stub, tmp_path / "store", openai_embedding_dim=64)
    first = make_session("s1", [("user", "My brother Tom is coming to stay with us.")])
    later = make_session("s2", [("user", "Tom is allergic to shellfish.")], day=1)
    ingest_sessions([first, later], settings)
    extraction = [
        r["messages"] for r in llm_stub.chat_requests() if r["messages"][0]["content"].startswith("You extract")
    ]
    documents = [m[-1]["content"] for m in extraction]
    known = [
        json.loads(d.split("<session>\n", 1)[1].rsplit("\n</session>", 1)[0]).get("known_people") for d in documents
    ]
    assert sorted(known, key=str) == sorted([None, {"Tom": "brother"}], key=str)
    assert "known_people" in OpenAIExtractor(settings)._system


def test_what_is_said_of_them_is_read_as_their_attribute() -> None:
    assert named_lead("My son Elif lives in Oslo.") == ("Elif", "son", "lives in Oslo.")
    assert named_lead("Elif, my son, lives in Oslo.") == ("Elif", "son", "lives in Oslo.")
    assert named_lead("My big project Atlas is late.") is None
    assert as_first_person("lives in Oslo") == "I live in Oslo"
    assert as_first_person("is vegan now") == "I am vegan now"
    assert as_first_person("just started at Acme") == "I just started at Acme"
    extractor = LocalExtractor()
    first = extractor.extract(make_session("s1", [("user", "My son Elif lives in Oslo.")]))
    later = extractor.extract(make_session("s2", [("user", "Elif moved to Bergen last month.")]), {"Elif": "son"})
    assert [(f.slot, f.value) for f in (*first.facts, *later.facts)] == [
        ("elif:location", "Oslo"),
        ("elif:location", "Bergen"),
    ]


def test_a_change_of_theirs_replaces_their_value_never_the_users(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions(
        [make_session("s1", [("user", "I live in Leeds."), ("user", "My son Elif lives in Oslo.")])], settings
    )
    ingest_sessions([make_session("s2", [("user", "Elif moved to Bergen last month.")], day=1)], settings)
    active = _active(settings)
    assert "User lives in Leeds" in active
    assert any(c.startswith("User's son Elif moved to Bergen") and "changed from Oslo" in c for c in active)
    # Something new about them that shares nothing but their name closes nothing of theirs or the user's.
    ingest_sessions([make_session("s3", [("user", "Elif is gluten-free these days.")], day=2)], settings)
    assert len(_active(settings)) == 3


def test_names_said_in_passing_are_known_without_a_relation() -> None:
    said = ["We always shop at Lidl on Saturdays.", "Our twins are called Ria and Sam.", "I moved in March."]
    assert mentioned(said) == {"Lidl": "", "Ria": "", "Sam": ""}  # not days, months or the opening word
    assert mentioned(['(Asked by the agent: "Which Python version?") User mentioned: 3.12']) == {}
    session = make_session("s2", [("user", "Ria's allergist said it's only peanuts, tree nuts are fine.")])
    assert LocalExtractor().extract(session).facts == []  # nobody the user named: talk about someone
    [fact] = LocalExtractor().extract(session, {"Ria": ""}).facts
    assert fact.content == "User mentioned that Ria's allergist said it's only peanuts, tree nuts are fine."


def test_a_name_from_an_earlier_run_is_known_from_the_store(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions(
        [make_session("s1", [("user", "Our twins are called Ria and Sam, my brother Tom visits.")])], settings
    )
    later = make_session("s2", [("user", "Ria's allergist said it's only peanuts.")], day=1)
    assert known_people([later], settings) == [{"Ria": "", "Sam": "", "Tom": "brother"}]


def test_a_name_said_before_keeps_its_capital_even_ending_in_ly() -> None:
    session = make_session("s3", [("user", "So Sicily it is, still very excited about the trip.")])
    [fact] = LocalExtractor().extract(session, {"Sicily": ""}).facts
    assert fact.content == "User mentioned that Sicily it is, still very excited about the trip."


def test_a_duty_done_closes_the_duty(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([make_session("s1", [("user", "I need to renew my passport before June."),
                                         ("user", "I love my passport photo, weirdly.")])], settings)  # fmt: skip
    ingest_sessions([make_session("s2", [("user", "Renewed the passport today.")], day=1)], settings)
    active = _active(settings)
    assert any(c.startswith("User renewed the passport today") and "needs to renew" in c for c in active)
    assert not any(c.startswith("User needs to renew") for c in active)
    assert any("passport photo" in c for c in active)  # not a duty: left alone


def test_what_a_friend_cannot_do_leaves_the_plan(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    turns = [("user", "yo! me and two friends, Bea and Carlos, want to do a road trip in Scotland in May"),
             ("agent", "Fun! How many days?"),
             ("user", "10 days-ish. Carlos can't drive so it's me and Bea sharing the driving")]  # fmt: skip
    ingest_sessions([make_session("s1", turns)], settings)
    active = _active(settings)
    assert "User and two friends, Bea and Carlos, want to do a road trip in Scotland in May" in active
    assert any("Carlos can't drive" in c for c in active)
    later = make_session("s2", [("user", "We're going with Ana and Rui."), ("user", "Rui can't come the first night.")])
    assert any("Rui can't come" in f.content for f in LocalExtractor().extract(later).facts)  # named earlier on


def test_their_change_matches_a_word_in_another_form(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([make_session("s1", [("user", "My daughter Maya has swim practice on Thursdays.")])], settings)
    ingest_sessions(
        [make_session("s2", [("user", "Maya quit swimming, she's doing gymnastics instead.")], day=1)], settings
    )
    [current] = _active(settings)
    assert current.startswith("User's daughter Maya quit swimming") and "swim practice" in current
