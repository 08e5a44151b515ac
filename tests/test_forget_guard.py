"""The forget guard on its own, role_of for software authors, the forget suite's figures, and redaction."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from evaluation.forget_suite import cases, measure
from tasks.consolidate.forget_guard import accept_forget
from tasks.ingest.validate import role_of
from tasks.models import Event, ForgetRequest, Session
from tasks.redact import redact, redact_session
from tasks.settings import Settings

AT = datetime(2025, 5, 1, 9, tzinfo=UTC)


def judge(text: str, query: str, author: str = "user") -> tuple[bool, str]:
    event = Event(id="e1", author=author, role=role_of(author, "jsonl"), text=text, timestamp=AT)
    session = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=(event,))
    return accept_forget(ForgetRequest(query=query, source_event_ids=("e1",), stated_at=AT), session)


@pytest.mark.parametrize(
    ("text", "query", "author", "accepted"),
    [
        ("Please forget that I live in Berlin.", "I live in Berlin", "user", True),
        ("Remove my phone number from your memory.", "phone number from your memory", "user", True),
        ("Don't forget that I am vegetarian.", "I am vegetarian", "user", False),
        ("Never forget that my dog is called Rex.", "my dog is called Rex", "user", False),
        ("My brother texted me 'forget that I live in Berlin'.", "I live in Berlin'", "user", False),
        ("Please remove Berlin from the itinerary.", "Berlin from the itinerary", "user", False),
        ("Can you delete the Google calendar invite?", "the Google calendar invite?", "user", False),
        ("Please forget that I live in Berlin.", "I live in Berlin", "system", False),
        ("Please forget that I live in Berlin.", "I live in Berlin", "ChatGPT", False),
        ("Please forget that I live in Berlin.", "I live in Berlin", "Caroline", False),
        ("Don't forget your passion for dance.", "your passion for dance", "Melanie", False),
        # "the X stuff": a topic named as such is a memory; a plan after it or a task word makes it a dismissal.
        ("Forget the marriage stuff.", "the marriage stuff", "user", True),
        ("Forget the museum stuff, let's go to the park instead.", "the museum stuff", "user", False),
        ("Forget the hotel stuff.", "the hotel stuff", "user", False),
        ("Forget the museum.", "the museum", "user", False),
        # "please" asks the assistant: a request unless a plan follows
        ("Please forget about the marathon.", "the marathon", "user", True),
        ("Please forget the museum, we can go to the park instead.", "the museum", "user", False),
        # a reason after it is not a plan: "we switched" says why
        ("And forget the poetry thing, we switched to uv.", "the poetry thing", "user", True),
    ],
)
def test_guard_cases(text: str, query: str, author: str, accepted: bool) -> None:
    ok, why = judge(text, query, author)
    assert ok is accepted, why
    assert why


def test_a_request_citing_no_event_of_the_session_is_refused() -> None:
    session = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=())
    ok, _ = accept_forget(ForgetRequest(query="x", source_event_ids=("e9",), stated_at=AT), session)
    assert not ok


@pytest.mark.parametrize("author", ["system", "tool", "function", "ChatGPT", "gpt-4o", "Claude-3", "travel-bot"])
def test_software_authors_are_never_the_user(author: str) -> None:
    assert role_of(author, "jsonl") == "agent"
    assert role_of("user", "jsonl") == "user" and role_of("Caroline", "jsonl") == "other"


def test_forget_suite_size_and_figures() -> None:
    all_cases = cases()
    assert len(all_cases) >= 100 and {c.split for c in all_cases} == {"dev", "held-out", "held-out-2"}
    results = measure()
    for split, r in results.items():
        assert r["non_user_deletions"] == 0 and r["false_deletions"] == 0, (split, r)
    assert results["dev"]["accuracy"] >= 0.98


def test_redaction_is_off_by_default_and_masks_pii_when_on() -> None:
    text = "Mail me at jo.doe+x@example.co.uk or call +44 20 7946 0958; card 4111 1111 1111 1111, order 1234567890123."
    assert redact(text, Settings()) == text
    on = Settings(redact_pii=True, redact_patterns=(r"\bBADGE-\d+\b",))
    out = redact(text + " Badge BADGE-991 in 2025 at 10:30 for 120 euros.", on)
    assert "[EMAIL]" in out and "example" not in out
    assert "[PHONE]" in out and "7946" not in out
    assert "[CARD]" in out and "4111" not in out
    assert "1234567890123" in out  # fails the Luhn check: not a card
    assert "[REDACTED]" in out and "BADGE-991" not in out
    assert "2025" in out and "10:30" in out and "120 euros" in out


def test_redact_session_masks_event_texts_and_keeps_the_session_otherwise() -> None:
    event = Event(id="e1", author="user", role="user", text="My email is a@b.io.", timestamp=AT)
    session = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=(event,))
    assert redact_session(session, Settings()) is session
    masked = redact_session(session, Settings(redact_pii=True))
    assert masked.events[0].text == "My email is [EMAIL]." and masked.events[0].id == "e1"
    assert masked.key == session.key


def test_forgetting_the_thing_the_other_side_just_offered_is_a_dismissal() -> None:
    """ "Forget the sushi stuff" right after the agent offered sushi turns the offer down: no memory named."""
    offer = Event(id="e0", author="agent", role="agent", text="How about the sushi place on 5th?", timestamp=AT)
    ask = Event(id="e1", author="user", role="user", text="Forget the sushi stuff.", timestamp=AT)
    session = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=(offer, ask))
    ok, why = accept_forget(ForgetRequest(query="the sushi stuff", source_event_ids=("e1",), stated_at=AT), session)
    assert not ok and "dismissal" in why
    alone = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=(ask,))
    ok, _ = accept_forget(ForgetRequest(query="the sushi stuff", source_event_ids=("e1",), stated_at=AT), alone)
    assert ok


#: Round 34: "forget my email" was refused as a task on an email message. Forgetting is done to what is known,
#: so it names the address; "delete my email" and an email named further ("to Tom", "from yesterday") stay
#: tasks. DEV read while writing the rule; HELD written with it and run once after (0 → 4 of 4 accepted).
EMAIL_DEV = ("Please forget my email.", "Now please forget my email.", "Forget my email, I changed it.")
EMAIL_HELD = ("Can you forget my email?", "Forget about my e-mail, it's outdated.", "forget my email pls",
              "I'd like you to forget my email now.")  # fmt: skip
EMAIL_TASKS = (("Delete my email from yesterday.", "email from yesterday"),
               ("Forget the email I drafted to Bob, let's write a new one.", "the email I drafted to Bob"),
               ("Please remove my email to Tom from the drafts.", "email to Tom from the drafts"),
               ("Delete my email.", "email"),
               ("Forget my emails to the landlord, they're sent.", "emails to the landlord"))  # fmt: skip


@pytest.mark.parametrize("text", EMAIL_DEV + EMAIL_HELD)
def test_forgetting_my_email_forgets_the_address(text: str) -> None:
    from tasks.providers.local_extractor import LocalExtractor

    event = Event(id="e1", author="user", role="user", text=text, timestamp=AT)
    told = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=(event,))
    requests = LocalExtractor().extract(told).forgets
    assert requests and all(accept_forget(r, told)[0] for r in requests), requests


@pytest.mark.parametrize(("text", "query"), EMAIL_TASKS)
def test_an_email_message_is_still_a_task(text: str, query: str) -> None:
    ok, why = judge(text, query)
    assert not ok and "task" in why, why


def test_forget_my_email_end_to_end(tmp_path: Path) -> None:
    """The address goes; what was said beside it stays (before round 34 the request was refused)."""
    from tests.test_forgetful import said_on_days

    said = ("My email is sam.lee@example.com and I work at the bakery.", "Please forget my email.")
    active = said_on_days(Settings(store_uri=str(tmp_path / "store")), said)
    assert not any("sam.lee@example.com" in c for c in active), active
    assert any("bakery" in c for c in active), active
