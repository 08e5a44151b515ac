"""The asked-now probe's rules: what ends the user's job (:mod:`tasks.providers.job_ends`), a correction
that admits a mistake without repeating it; and the probe's harness on a real store (a life told over
sessions, then asked back)."""

from __future__ import annotations

import pytest

from evaluation.asked_now import says, says_stale, sessions
from evaluation.temporal import told_session
from tasks.ingest.run import ingest_sessions
from tasks.models import RecallHit
from tasks.providers.corrections import correcting
from tasks.providers.endings import ends
from tasks.providers.job_ends import job_ends
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.said_as import as_said
from tasks.providers.statements import rescheduled
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tests.test_life_endings import NOW, _fact, _memory, _Scored


@pytest.mark.parametrize(
    ("fact", "memory", "ended"),
    [
        # a job said in more ways than "works" and "is a … at X"
        ("User got laid off today.", "User is in HR at OhioHealth", True),
        ("User got made redundant.", "User is in sales for a software firm", True),
        ("User packed in the lorry driving.", "User drives HGV for a living", True),
        ("User jacked in the job at last.", "User does bookkeeping for a living", True),
        ("User got laid off today.", "User is in hospital at the moment", False),
        ("User packed in the gym.", "User drives HGV for a living", False),
        # a last day at the office or at work
        ("User mentioned that today was User's last day at office.", "User is a civil engineer at L&T in Pune", True),
        ("User's last day at work is Friday.", "User works as a receptionist", True),
        # a new job elsewhere
        ("User is starting with First Bus in November, regular hours", "User drives HGV for a living", True),
        ("User is starting full-time at Sparkle Animation as a background artist!", "User is freelance", True),
        ("User quit the supermarket, got a job at nandos fri nights", "User works saturdays at tesco", True),
        ("User is not going back after leave, User has accepted a senior role at a GP surgery",
         "User works as a pharmacist at Boots", True),
        ("User landed a job with the council's planning team.", "User is self-employed", True),
        # not a job, the same employer, a second job, someone else's
        ("User started with Couch to 5K on Monday.", "User works at Tesco", False),
        ("User has accepted a new role at Boots as store manager.", "User works as a pharmacist at Boots", False),
        ("User got a weekend job at the pub as well.", "User works at Tesco", False),
        ("User's wife got a job at Aldi, better hours.", "User works at Tesco", False),
        ("User got a job at Aldi, better hours.", "User's wife works at Tesco", False),
    ],
)  # fmt: skip
def test_what_ends_the_users_job(fact: str, memory: str, ended: bool) -> None:
    """The asked-now probe: a layoff, a job packed in, a last day and a new job had left the old job current."""
    assert job_ends(fact, memory) is ended


def test_a_note_on_the_earlier_value_is_not_what_a_memory_says_now() -> None:
    changed = "User cycles on Wednesdays (previously: User cycles on Thursdays; changed on 2026-10-12)"
    assert says(changed, ("wednesday",)) and not says(changed, ("thursday",))
    episode = "User has a 2014 Fiesta (later changed: User picked up a Kia Niro). User likes jazz."
    assert says(episode, ("niro",)) and not says_stale(episode, ("fiesta",))
    assert says_stale("User has a 2014 Fiesta", ("fiesta",))


def test_a_life_asked_back_now_recalls_the_new_job_first(tmp_path: object) -> None:
    life = ("kai", (("I work at Tesco on the tills",), ("quit tesco! got a job at the Co-op, better pay",)), ())
    settings = Settings(store_uri=str(tmp_path))
    ingest_sessions(sessions("dev", life), settings)
    with Recaller(settings) as recaller:
        hits: list[RecallHit] = recaller.recall("where am I working now?", "asked-now", "dev-kai", k=3)
    assert says(hits[0].content, ("co-op",))
    assert not any(says_stale(h.content, ("tills",)) for h in hits)


@pytest.mark.parametrize(
    ("memory", "said", "now"),
    [
        ("User's twins turn 7 on the 12th of August", "oops wrong date earlier, the twins' birthday is the 21st",
         "User's twins turn 7 on the 21st of August"),
        ("User's fiancé Huy is a software engineer at FPT",
         "User mentioned that small correction, Huy works at Viettel, not the place User said",
         "User's fiancé Huy is a software engineer at Viettel"),
        ("User's son Arjun lives in Dallas, they visit him in June.",
         "User mentioned that Correction to earlier, Arjun moved to Austin, User keeps saying the old place",
         "User's son Arjun lives in Austin, they visit him in June."),
        ("User's book club meets on Tuesdays at Hazel's",
         "User mentioned that the book club is on Thursdays, not the day User said",
         "User's book club meets on Thursdays at Hazel's"),
        # told anew of something the memory does not name
        ("User's dentist is on the 12th", "quick correction, the twins' party is the 21st", None),
    ],
)  # fmt: skip
def test_a_correction_that_does_not_repeat_the_old_value(memory: str, said: str, now: str | None) -> None:
    """The asked-now probe: "not what I said" and "I keep saying the old place" left the old value current."""
    fixed = correcting(_fact(said), [_Scored(_memory(memory), 0.3)])  # type: ignore[list-item]
    assert (fixed[0].content if fixed else None) == now


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("signed for a 1 bed in Scarborough, $1,950 a month, is that reasonable?",
         "signed for a 1 bed in Scarborough, $1,950 a month."),
        ("landlord is raising it to 2,100 from March 😩 is that even legal in Ontario?",
         "landlord is raising it to 2,100 from March."),
        ("I've started doing 16:8 fasting, does that sound ok?", "I've started doing 16:8 fasting."),
        ("Is that reasonable, what do you think?", "Is that reasonable, what do you think?"),
    ],
)  # fmt: skip
def test_a_statement_that_ends_by_asking_is_kept(sentence: str, said: str) -> None:
    """The asked-now probe: "…, $1,950 a month, is that reasonable?" was dropped as a question."""
    assert as_said(sentence) == said


@pytest.mark.parametrize(
    ("fact", "memory", "moved"),
    [
        ("User mentioned that the holiday has been pushed back to May",
         "User and User's sister have booked Madeira for the 14th of March, 10 nights in Funchal!", True),
        ("User mentioned that they moved the wedding to next March",
         "User mentioned that they're getting married 15 December", True),
        # a memory naming the thing but at no time is not an arrangement to move
        ("User mentioned that they moved the wedding to next March",
         "User's fiancé Huy is a software engineer, he wants User to ask you about wedding budget.", False),
        ("User's surgery got postponed to the 3rd", "User is having a knee operation on 12 June", True),
        ("User's surgery got postponed to the 3rd", "User's sister's party is on Friday", False),
    ],
)  # fmt: skip
def test_a_date_moved_moves_an_arrangement_of_its_kind_said_at_a_time(fact: str, memory: str, moved: bool) -> None:
    """The asked-now probe: "moved the wedding to next March" had superseded the fiancé's job (it said
    "wedding budget"), and "the holiday has been pushed back to May" missed "booked Madeira …"."""
    moves = rescheduled(fact)
    assert moves is not None and moves(memory) is moved


@pytest.mark.parametrize(
    ("text", "memories"),
    [
        # a question typed without its "?" is asked of the agent, not told
        ("whats the best way to get rid of a squeaky fan belt", []),
        ("what should I know about renting in Toronto", []),
        ("where do i even start", []),
        ("how do I build credit history here from zero", []),
        # a question asked first, then a statement about the user
        ("where should we eat in Porto, I'm vegetarian btw", ["User is vegetarian"]),
        # statements that open like a question
        ("Which is why I moved to Leeds", ["User lives in Leeds"]),
    ],
)  # fmt: skip
def test_a_question_without_its_mark_is_not_a_memory(text: str, memories: list[str]) -> None:
    """The asked-now probe: "What should User knows about renting in Toronto" and "Where do User even starts"
    were stored, and took places in recall's top three."""
    said = [f.content for f in LocalExtractor().extract(told_session("a", "u", "s", text, NOW)).facts]
    assert said == memories


def test_going_vegan_changes_the_diet() -> None:
    """The asked-now probe: "going fully vegan from this month" left "User is vegetarian" current."""
    facts = LocalExtractor().extract(told_session("a", "u", "s", "going fully vegan from this month 🌱", NOW)).facts
    assert [(f.slot, f.value) for f in facts] == [("preference:diet", "vegan")]


@pytest.mark.parametrize(
    ("fact", "memory", "ended"),
    [
        ("User and Rafa broke up.", "User's bf Rafael is visiting from Brazil the week after 9 October!!", True),
        ("User and Ana broke up.", "User's bf Rafael is visiting from Brazil the week after 9 October!!", False),
        ("User and Jo split up.", "User's partner Jo works nights", True),
        ("User's sister and Jo split up.", "User's partner Jo works nights", False),
    ],
)  # fmt: skip
def test_a_break_up_ends_the_one_the_user_was_with_by_a_short_name_too(fact: str, memory: str, ended: bool) -> None:
    """The asked-now probe: "rafa and I broke up" left "User's bf Rafael is visiting" current."""
    assert ends(fact, memory) is ended
