"""Endings, reversals and corrections told a month later (``evaluation.life_endings``): each rule's pieces,
and the family's groups on a real store."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from evaluation.life_changes import measure
from evaluation.life_endings import cases as life_endings_cases
from evaluation.temporal import told_session
from tasks.models import Fact
from tasks.providers.corrections import corrected, correcting, correction
from tasks.providers.endings import ends
from tasks.providers.job_ends import job_ends
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.milestones import milestone_ends
from tasks.providers.settling import calls_off, completes_study, drops_study
from tasks.providers.statements import STRONG_CUE, old_words
from tasks.rows import MemoryRow
from tasks.settings import Settings

NOW = datetime(2026, 10, 1, 12, tzinfo=UTC)


@dataclass(frozen=True)
class _Scored:
    """A related memory as the store's search gives it (``ScoredMemory``)."""

    memory: MemoryRow
    similarity: float


def _fact(content: str) -> Fact:
    return Fact(topic="key_conversation_details", content=content, source_event_ids=("e",), stated_at=NOW,
                speaker="User")  # fmt: skip


def _memory(content: str) -> MemoryRow:
    return MemoryRow.model_validate(
        {"row_id": "m-v1", "memory_id": "m", "version": 1, "app_name": "a", "user_id": "u", "topic": "t",
         "content": content, "vector": [0.0], "importance": 0.5, "confidence": 0.8, "speaker": "User", "slot": None,
         "value": None, "source_session_id": "s", "source_event_ids": ["e"], "stated_at": NOW, "valid_from": NOW,
         "valid_to": None, "status": "active", "status_reason": None, "supersedes": None, "relation": "new",
         "confirmations": 0, "last_confirmed_at": None, "access_count": 0, "last_accessed_at": None,
         "created_at": NOW, "updated_at": NOW, "run_id": "r"}
    )  # fmt: skip


def _contents(text: str) -> list[str]:
    return [f.content for f in LocalExtractor().extract(told_session("a", "u", "s", text, NOW)).facts]


@pytest.mark.parametrize(
    ("fact", "memory", "done"),
    [
        ("User just finished year 2 of the degree, got a 2:1 average.",
         "User is doing an Open University degree in psychology, part time.", False),
        ("User finished User's first term of the MBA.", "User is studying for an MBA at Warwick.", False),
        ("User finished User's nursing degree last month!", "User is studying for a nursing degree.", True),
    ],
)  # fmt: skip
def test_a_part_of_a_course_finished_leaves_the_course_going_on(fact: str, memory: str, done: bool) -> None:
    """Probe 10: 'just finished year 2 of the degree' had closed 'doing an Open University degree'."""
    assert completes_study(fact, memory) is done


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("User is doing a side hustle selling vintage trainers on depop", False),
        ("User sold 40 cupcakes at the market", False),
        ("User sold the Jazz last week", True),
        ("User is selling User's piano", True),
        ("They are selling up and moving to Spain", True),
    ],
)
def test_selling_is_a_change_only_of_what_is_the_users_own(text: str, change: bool) -> None:
    """Probe 9: a side hustle 'selling vintage trainers' had closed 'warehouse supervisor at an Amazon depot'."""
    assert (STRONG_CUE.search(text) is not None) is change


def test_a_plan_called_off_in_its_short_form_names_the_plan() -> None:
    assert old_words("User mentioned that Lisbon's cancelled, Kez broke his ankle").split() == ["Lisbon"]
    assert old_words("Barbecue's called off, rain all weekend").split() == ["Barbecue"]


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("we broke up. his choice not mine", "User mentioned that they broke up: his choice not User's"),
        ("My finger's healed.", "User's finger is healed."),  # round 40: "'s" before an adjective reads "is"
        ("finger's healed, back on the wall.", "User's finger's healed, back on the wall."),
    ],
)
def test_a_life_event_told_in_few_words_is_kept(text: str, told: str) -> None:
    assert told in _contents(text)


@pytest.mark.parametrize(
    ("fact", "memory", "ended"),
    [
        ("User and Ana split up at the weekend.", "User and User's girlfriend Ana have been together 2 years.", True),
        ("User mentioned that they broke up.", "User is seeing a guy called Marco, it's going really well.", True),
        ("User split up with Marco.", "User and User's girlfriend Ana have been together 2 years.", False),
        ("User's brother and his wife split up.", "User and User's girlfriend Ana have been together 2 years.", False),
        ("User finally paid off User's student loan!", "User has a student loan of £14,000.", True),
        ("User paid the car loan off early!", "User took out a car loan of £9,000 over 4 years", True),
        ("User paid off the sofa, finally.", "User has a student loan of £14,000.", False),
        ("User's ankle's healed, back to netball on Thursday",
         "User sprained User's ankle playing netball, on crutches for now.", True),
        ("User's finger's healed, back on the wall.",
         "User tore a finger pulley so no climbing for a couple months :(", True),
        ("User is fully recovered from the knee surgery", "User had knee surgery on Monday", True),
        ("User's dad's hip has healed", "User hurt User's hip", False),
        ("User's ankle's healed", "User's knee is sore after running", False),
        ("Lou dumped User on 20 September 2026", "User has got a girlfriend, Lou, they met at uni.", True),
        ("User's credit card's paid off!", "User has got £3,000 on User's credit card.", True),
        ("User paid dad back the £2,000 today.", "User owes User's dad £2,000 for the car.", True),
        ("User's hamstring's fine now, played 90 mins", "User pulled User's hamstring at football.", True),
        ("User's back's much better now.", "User has got a bad back, can't lift anything.", True),
        ("User has started eating chicken again.", "User is pescatarian", True),
        ("User is back eating meat, being veggie didn't work for User.", "User is vegetarian", True),
        ("User mentioned that the vegetarian thing didn't stick", "User has been vegan for two years.", True),
        ("User's husband is back eating meat.", "User is vegetarian", False),
        ("User has started swimming", "User hates swimming, always have", True),
        ("User got into yoga", "User can't stand yoga classes", True),
        ("User's son has started swimming lessons.", "User hates swimming, always have", False),
        ("User has started running", "User hates swimming, always have", False),
    ],
)  # fmt: skip
def test_an_event_of_the_users_ends_the_state_it_names(fact: str, memory: str, ended: bool) -> None:
    """Probes 9 and 10: a break-up, a loan paid off and a finger healed had left each state current."""
    assert ends(fact, memory) is ended


@pytest.mark.parametrize(
    ("fact", "memory", "ended"),
    [
        ("User got made redundant on Friday, after 9 years.", "User works at Tesco as a shift manager", True),
        ("User has handed in User's notice at The Anchor, last day on the 30th.",
         "User works as a chef at The Anchor.", True),
        ("User has handed in User's notice at The Anchor", "User works at Tesco", False),
        ("User left Tesco in September 2026.", "User works at Tesco as a shift manager", True),
        ("User got made redundant today.", "User is a warehouse supervisor at an Amazon depot in Coventry", True),
        ("User mentioned that User's mate got laid off", "User works at Tesco", False),
        ("Costa let User go on Friday.", "User works as a barista at Costa", True),
        ("User mentioned that today was User's last day at Park School!", "User works as a teacher at Park School",
         True),
        ("User's wife got laid off from Boots.", "User works at Boots on the high street.", False),
    ],
)  # fmt: skip
def test_losing_or_leaving_a_job_ends_it(fact: str, memory: str, ended: bool) -> None:
    assert job_ends(fact, memory) is ended


@pytest.mark.parametrize(
    ("fact", "memory", "ended"),
    [
        ("User dropped out of the access course, too much with the kids.",
         "User is doing an access course in science at the college.", True),
        ("User quit User's MSc.", "User is doing an MSc in physics", True),
        ("User quit sugar", "User is doing an MSc in physics", False),
        ("User left the college choir", "User is doing an access course in science at the college.", False),
    ],
)  # fmt: skip
def test_dropping_out_ends_the_course(fact: str, memory: str, ended: bool) -> None:
    assert drops_study(fact, memory) is ended


def test_the_family_on_a_real_store() -> None:
    """DEV's part_done, trade, off_short and endings groups, each case in its own user of a real store."""
    cases = life_endings_cases("dev")[:23]
    assert measure(cases, "e", Settings()) == (sum(1 for c in cases if c[3]), sum(1 for c in cases if not c[3]))


@pytest.mark.parametrize(
    ("fact", "told"),
    [
        ("User mentioned that it's July not June, her lease runs longer", ("July", "June")),
        ("User mentioned that it's Wednesdays User cycles, not thursdays", ("Wednesdays", "thursdays")),
        ("User meant the 19th not the 9th", ("the 19th", "the 9th")),
        ("User mentioned that correction: pottery is on Wednesdays, not Tuesdays", ("Wednesdays", "Tuesdays")),
        ("User is vegetarian, not vegan", None),
        ("User mentioned: the party's on Sunday not Saturday", ("Sunday", "Saturday")),
        ("User means the 4th, not the 3rd.", ("the 4th", "the 3rd")),
        ("User would like tea not coffee.", None),
        ("User mentioned that it's Sam not Tom who cooks", None),
    ],
)
def test_a_correction_says_its_new_and_old_value(fact: str, told: tuple[str, str] | None) -> None:
    assert correction(fact) == told


@pytest.mark.parametrize(
    ("memory", "told", "now"),
    [
        ("User and Priya are moving in together in June!", ("July", "June"),
         "User and Priya are moving in together in July!"),
        ("User cycles to work on Thursdays", ("wednesdays", "thursdays"), "User cycles to work on Wednesdays"),
        ("User's dentist appointment is on the 9th", ("the 19th", "the 9th"),
         "User's dentist appointment is on the 19th"),
        ("User's dentist appointment is on 9 May", ("the 19th", "the 9th"), None),
        ("User's sister lives in Leeds", ("Leeds", "Luton"), None),
    ],
)  # fmt: skip
def test_the_corrected_memory_says_the_new_value_in_its_place(
    memory: str, told: tuple[str, str], now: str | None
) -> None:
    assert corrected(memory, *told) == now


def test_a_correction_a_month_later_rewrites_the_memory_it_corrects() -> None:
    """Probe 9: 'actually it's July not June' had replaced the plan to move in with Priya by its own words."""
    cases = life_endings_cases("dev")[28:31]
    assert all(" not " in c[1] for c in cases)
    assert measure(cases, "c", Settings()) == (3, 0)


def test_a_verb_said_of_it_alone_changes_nothing() -> None:
    """Probe 10's wording: "I've started swimming and honestly I love it now" had closed "User's car is a blue
    Golf" ("User loves it now": "now" and a noun-or-verb frame, but "it" names nothing)."""
    cases = [("My car is a blue Golf.", "I've started swimming and honestly I love it now.", ("blue golf",), ())]
    assert measure(cases, "i", Settings()) == (0, 1)


def test_someone_elses_taste_now_leaves_the_users() -> None:
    """'My son loves cricket now' had closed 'User hates cricket' (a weak 'now' said of someone else)."""
    cases = [("I hate cricket.", "My son loves cricket now.", ("hates cricket", "loves cricket"), ())]
    assert measure(cases, "k", Settings()) == (0, 1)


def test_a_plan_moved_then_called_off_is_closed_in_every_memory_of_it() -> None:
    """Probe 9: "we moved the Lisbon trip to April" had not moved the booking (a booking read as history), and
    "Lisbon's cancelled" then closed only the closest of the two."""
    cases = [
        (
            "booked a trip to Lisbon for the 14th of march with my mate Kez",
            "we moved the Lisbon trip to April because Kez couldn't get time off",
            ("april",),
            ("14th of march",),
        )
    ]
    assert measure(cases, "l", Settings()) == (1, 0)


def test_an_opening_adverb_leaves_the_user_the_subject() -> None:
    assert ends("Weirdly User has started running", "User hates running, always have")


@pytest.mark.parametrize(
    ("fact", "memory", "closed"),
    [
        ("User mentioned that Lisbon's cancelled, Kez broke his ankle",
         "User booked a trip to Lisbon for the 14th of march with User's mate Kez", True),
        ("User mentioned that Lisbon's cancelled, Kez broke his ankle", "User's sister lives in Lisbon", False),
        ("User mentioned that the Lisbon trip is great", "User booked a trip to Lisbon for 14 March", False),
    ],
)  # fmt: skip
def test_a_plan_called_off_closes_each_arrangement_naming_it(fact: str, memory: str, closed: bool) -> None:
    assert calls_off(fact, memory) is closed


@pytest.mark.parametrize(
    ("memory", "fact", "now"),
    [
        ("User's daughter Isla's birthday party is on Saturday the 21st.",
         "User got User's dates muddled, Isla's party is Sunday the 22nd",
         "User's daughter Isla's birthday party is on Sunday the 22nd."),
        ("User earns €52,000 a year at the hospital in Cork.",
         "User got that wrong, User's salary is €56,500, User was looking at an old payslip.",
         "User earns €56,500 a year at the hospital in Cork."),
        ("User's flight to Toronto is at 10:40 on Tuesday.",
         "ugh User reads the ticket wrong, it's 7:15 in the morning",
         "User's flight to Toronto is at 7:15 on Tuesday."),
        ("User's new line manager is called Rebecca.",
         "User must correct themselves: User's new line manager's name is Rachel.",
         "User's new line manager is called Rachel."),
        ("User works at the Co-op in Hebden Bridge.", "User got that wrong, it's lovely weather", None),
        ("User's niece's christening is on the 15th of June.",
         "User mentioned that the christening is on the 14th, User got the date wrong.",
         "User's niece's christening is on the 14th of June."),
        ("User's passport expires on 3 March 2026.",
         "User mentioned that Correction: the passport expiry date is 3 May 2026, User misreads it.",
         "User's passport expires on 3 May 2026."),
        ("User mentioned that their new vet is Dr Patel at Riverside Vets.",
         "Scratch what User said, the vet is Dr Okoye.",
         "User mentioned that their new vet is Dr Okoye at Riverside Vets."),
    ],
)  # fmt: skip
def test_a_mistake_admitted_tells_the_memory_again_with_each_value_given_anew(
    memory: str, fact: str, now: str | None
) -> None:
    """DEV's third batch: a correction that admits the mistake and says the thing again, with no "not"."""
    found = correcting(_fact(fact), [_Scored(_memory(memory), 0.5)])
    assert (found[0].content if found else None) == now


@pytest.mark.parametrize(
    ("fact", "memory", "ended"),
    [
        ("User graduated on Friday!!", "User is studying nursing at Cardiff, final year now.", True),
        ("User finished User's apprenticeship!", "User is an apprentice electrician with a firm in Swindon.", True),
        ("User dropped out of the HND, it wasn't for User.",
         "User is doing an HND in Computing at Glasgow Clyde College.", True),
    ],
)  # fmt: skip
def test_more_kinds_of_course_end(fact: str, memory: str, ended: bool) -> None:
    assert (completes_study(fact, memory) or drops_study(fact, memory)) is ended


@pytest.mark.parametrize(
    ("fact", "memory", "ended"),
    [
        ("User retired at the end of the summer term.",
         "User has been the headteacher of St Anne's Primary in Norwich for twelve years.", True),
        ("User started having the odd glass of wine again, nothing crazy", "User doesn't drink, haven't since 2019.",
         True),
        ("User's dad started having the odd glass of wine again", "User doesn't drink, haven't since 2019.", False),
        ("User has been smoking again since things got stressful at work.", "User is a non-smoker now, quit ages ago.",
         True),
        ("User mentioned that Eating meat again these days", "User is vegan, have been for two years", True),
        ("User's credit card paid off!!!", "User maxed User's credit card, like 2.5k on it rn", True),
        ("User formally retired from general practice.", "User works as a GP partner at the Elm Street practice.",
         True),
    ],
)  # fmt: skip
def test_retiring_from_a_headship_and_drinking_again(fact: str, memory: str, ended: bool) -> None:
    assert (milestone_ends(fact, memory) or ends(fact, memory) or job_ends(fact, memory)) is ended


def test_a_sale_said_in_the_passive_names_what_was_sold() -> None:
    assert STRONG_CUE.search("User mentioned that Kestrel's been sold.") is not None
    assert old_words("User mentioned that Kestrel's been sold.").split() == ["Kestrel"]


def test_someone_elses_plan_called_off_leaves_the_users() -> None:
    cases = [
        (
            "I've got a gig at the Half Moon in Putney on Friday, first solo set.",
            "My sister's gig got cancelled, her drummer quit on her.",
            ("half moon", "sister"),
            (),
        )
    ]
    assert measure(cases, "g", Settings()) == (0, 1)


def test_a_drink_given_up_is_told_as_not_drunk_not_as_disliked() -> None:
    """Probe 9: "I don't drink coffee anymore, switched to green tea" had been "User does not like coffee
    anymore", with "not green tea" as the value of the drink slot. Since round 26 the user's "I" carries into
    "switched to green tea", so the drink slot holds the new drink and the same memory says coffee is given up."""
    said = "I don't drink coffee anymore, switched to green tea"
    facts = LocalExtractor().extract(told_session("a", "u", "s", said, NOW)).facts
    slotted = [(f.content, f.value) for f in facts if f.slot]
    assert slotted == [("User has switched to green tea; User doesn't drink coffee anymore", "green tea")]


def test_a_switch_said_with_its_reason_is_said_once() -> None:
    """The switch rule's "User has switched to green tea" and the clause it absorbed ("switched to green tea
    because it helps my sleep") said the new drink twice; the clause that says more now stands for both."""
    said = "I don't drink coffee anymore, switched to green tea because it helps my sleep"
    facts = LocalExtractor().extract(told_session("a", "u", "s", said, NOW)).facts
    slotted = [(f.content, f.value) for f in facts if f.slot]
    assert slotted == [
        ("User switched to green tea because it helps User's sleep; User doesn't drink coffee anymore", "green tea")
    ]
