"""The third-person rewrite every local memory goes through, and the words an episode is said to be about."""

from __future__ import annotations

import pytest

from evaluation.wording import FAMILIES, dev_failures, main, memories_of, score
from tasks.providers.clause_shape import bare_answer, is_fragment
from tasks.providers.forget_values import same_family
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.local_summarizer import LocalSummarizer
from tasks.textrules import clean, sentences
from tasks.third_person import third_person
from tests.test_extraction import session


def test_dev_families_read_as_english() -> None:
    assert dev_failures() == []


def test_held_out_families_mostly_read_as_english() -> None:
    """Written before the rules and never read while writing them: a floor, not an exact answer."""
    right, total = score()["heldout"]
    assert total >= 20 and right / total >= 0.9


def test_every_family_has_cases_and_a_split() -> None:
    assert {f.split for f in FAMILIES} == {"dev", "heldout"}
    assert all(len(f.cases) + len(f.chat) >= 3 for f in FAMILIES)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I think I know why.", "Ann thinks Ann knows why."),  # every "I" of a sentence, not only the first
        ("I can't wait and I won't stop.", "Ann can't wait and Ann won't stop."),
        ("I Love NY.", "Ann Love NY."),  # capitalised: a name or a title, never conjugated
        ("I fly to Oslo and I rarely drive.", "Ann flies to Oslo and Ann rarely drives."),
        ("I", "I"),  # nothing after it: left alone
    ],
)
def test_third_person_edges(text: str, want: str) -> None:
    assert third_person(text, "Ann") == want


def test_episode_topics_skip_the_asked_by_label() -> None:
    s = session(
        ("Melanie", "What got you into trail running?"),
        ("Caroline", "Trail running clears my head after work."),
        ("Melanie", "Which trail do you like best?"),
        ("Caroline", "The ridge trail near the lake, because running there is quiet."),
    )
    episode = LocalSummarizer().summarize(s)
    assert "asked" not in episode.topics and "trail" in episode.topics  # topics are nouns (tests/test_topics.py)
    assert "asked" not in episode.summary.split(".")[0].lower()


def test_cli_prints_both_splits(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--failures"])
    out = capsys.readouterr().out
    assert "dev" in out and "heldout" in out and "want" not in out


@pytest.mark.parametrize("who", ["user", "Caroline"])
def test_typographic_apostrophes_extract_what_straight_ones_do(who: str) -> None:
    """Phone keyboards type "I’m": every rule is written with "'", so the text is straightened first."""
    turns = [
        "I’m vegan now and I’ve been for a year.",
        "I don’t drink coffee anymore, I’d rather have tea.",
        "My brother’s band plays on Friday and I’ll be there.",
        "Please forget my old address, it’s wrong.",
        "I haven’t decided on the job at Acme yet.",
    ]
    for text in turns:
        curly = LocalExtractor().extract(session((who, text)))
        straight = LocalExtractor().extract(session((who, text.replace("’", "'"))))
        assert curly.facts or curly.forgets, text
        assert [f.content for f in curly.facts] == [f.content for f in straight.facts], text
        assert [f.query for f in curly.forgets] == [f.query for f in straight.forgets], text


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("i dont know, i.e. not yet", "I don't know, i.e. not yet"),  # "i.e." is not the pronoun
        ("Dont worry, im fine", "I'm fine"),  # a plea before the point is filler (round 34), as "btw" is
        ("Dont worry about it, im fine", "Don't worry about it, I'm fine"),  # an object of its own: kept
        ("i was ill last week", "I was ill last week"),  # "ill" is a word, not "I'll"
        ("btw, i think so tbh.", "I think so."),
        ("see part i) below", "See part i) below"),  # a list marker
    ],
)
def test_clean_writes_out_loose_chat(text: str, want: str) -> None:
    assert clean(text) == want


def test_forget_requests_name_a_memory_in_another_form() -> None:
    """Dev cases of evaluation.forget_forms through the real ingest: "forget my allergy" closes
    "allergic to cats" and leaves "long walks" alone."""
    from evaluation.forget_forms import CASES
    from evaluation.writepath.runner import run_writepath

    dev = [c for c in CASES if c.split == "dev" and c.keep]
    results = run_writepath(cases=dev[:1]).results
    assert [r.decision_ok for r in results] == [True], results


def test_forget_requests_by_topic_kind_and_possessive_delete_only_what_they_name() -> None:
    """ "forget the marriage stuff", "my photography job" (the kind-of-thing head "job" need not be said),
    "my brother's job" (the possessive names the brother); "my sister's wedding plans" leaves "sister
    lives in Dublin" (the wedding is not said) and "forget the museum stuff, let's…" is a dismissal."""
    from evaluation.forget_forms import CASES
    from evaluation.writepath.runner import run_writepath

    wanted = {f"forget-forms/dev#{n}" for n in (5, 6, 20, 21, 22)}
    results = run_writepath(cases=[c for c in CASES if c.case_id in wanted]).results
    assert len(results) == len(wanted)
    assert all(r.decision_ok for r in results), [(r.case_id, r.why) for r in results if not r.decision_ok]


@pytest.mark.parametrize(
    ("text", "words"),
    [("my brother's job", {"brother", "job"}), ("it's what's left", {"left"}), ("let's go", {"go"}),
     ("the kids' room", {"kid", "room"})],
)  # fmt: skip
def test_possessives_count_as_their_noun(text: str, words: set[str]) -> None:
    from tasks.providers.wording import content_words

    assert content_words(text) == words


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [("allergy", "allergic", True), ("smoking", "smoker", True), ("photography", "photographer", True),
     ("cat", "cats", False), ("movie", "moving", True), ("garden", "guardian", False), ("plan", "plant", False)],
)  # fmt: skip
def test_word_families_are_conservative(a: str, b: str, same: bool) -> None:
    """ "movie" / "moving" pass the word test: the similarity floor (FAMILY_AT) is what keeps them apart."""
    assert same_family(a, b) is same


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("i dont like tofu tbh. i love risotto", ["i dont like tofu tbh.", "i love risotto"]),
        ("Dr. Smith met J. Smith. fine", ["Dr. Smith met J. Smith.", "fine"]),
        ("So did I. then we left", ["So did I.", "then we left"]),  # "I." is not an initial
        ("Look! [shares a photo: a lake]", ["Look! [shares a photo: a lake]"]),  # a caption stays with its sentence
        ("work stuff... but it was fine", ["work stuff... but it was fine"]),
        ("No. 5 is mine. no. never", ["No. 5 is mine.", "no.", "never"]),
        ("We met at 5 p.m. Then I left.", ["We met at 5 p.m.", "Then I left."]),  # a clock time ends a sentence
        ("at 5 p.m. sharp", ["at 5 p.m. sharp"]),
    ],
)
def test_sentences_split_lower_case_chat(text: str, want: list[str]) -> None:
    assert sentences(text) == want


def test_switching_closes_a_plain_statement_of_the_old_habit() -> None:
    """ "I drink coffee every morning" is not a stated preference (no rule reads it as one), so
    "I've switched to tea" must carry the switch in its words for consolidation to close it."""
    from evaluation.writepath.cases import Case
    from evaluation.writepath.runner import run_writepath

    case = Case("switch#1", "switch", "dev", "change", (("I drink coffee every morning.",), ("ive switched to tea",)),
                new=("tea",), old=("coffee",))  # fmt: skip
    (result,) = run_writepath(cases=[case]).results
    assert result.decision_ok, result.why


@pytest.mark.parametrize(
    ("text", "want"),
    [("My grandpa fought in World War I and I love history.",
      "User's grandpa fought in World War I and User loves history."),
     ("I just finished Part I of the course.", "User just finished Part I of the course."),
     ("Thanks James I will", "Thanks James User will")],
)  # fmt: skip
def test_a_roman_numeral_is_not_the_speaker(text: str, want: str) -> None:
    assert third_person(text, "User") == want


def test_a_chat_with_a_partner_a_budget_and_a_cancellation_reads_right() -> None:
    """One loosely typed session through the extractor: an announcement before the point is dropped,
    a sentence's capitalised first word is not a name, a one-word question gives a short answer its
    meaning, and a person the user tied to themselves keeps that tie."""
    s = session(
        ("user", "Hi! Quick one - we're planning a weekend in Porto with my partner Sam."),
        ("agent", "Do you have dates yet?"),
        ("user", "Probably the 14th to 16th. Sam is gluten-free so restaurants matter."),
        ("agent", "Any budget?"),
        ("user", "Around 600 euros total."),
    )
    facts = [f.content for f in LocalExtractor().extract(s).facts]
    joined = " | ".join(facts)
    assert "User mentioned that they're planning a weekend in Porto" in joined and "Quick one" not in joined
    assert "User mentioned: probably the 14th" in joined
    assert "User's partner Sam is gluten-free" in joined
    assert '(Asked by the agent: "Any budget?") User mentioned: around 600 euros total' in joined


def test_a_name_not_tied_to_the_user_stays_a_passing_remark() -> None:
    """ "Porto is lovely" names nobody in the user's life: no memory of its own."""
    facts = [f.content for f in LocalExtractor().extract(session(("user", "Porto is lovely."))).facts]
    assert facts == []


def test_a_question_handed_back_is_the_one_first_asked() -> None:
    """ "How about you?" carries no words; the answer answers the question its speaker asked first."""
    s = session(
        ("Ann", "What do you do for fun these days?"),
        ("Bo", "I paint landscapes. How about you?"),
        ("Ann", "I go rock climbing at the gym twice a week."),
    )
    facts = {f.content: f.source_event_ids for f in LocalExtractor().extract(s).facts}
    answer = '(Asked by Bo: "What do you do for fun these days?") Ann goes rock climbing at the gym twice a week.'
    assert facts[answer] == ("s1-e1", "s1-e3")


def test_a_change_said_after_a_forget_request_is_kept() -> None:
    """ "forget the poetry thing, we switched to uv": the request, and the switch as a fact of its own;
    a reason ("..., I don't want it on file") is not a fact."""
    x = LocalExtractor()
    out = x.extract(session(("user", "And forget the poetry thing, we switched to uv.")))
    assert [f.query for f in out.forgets] == ["the poetry thing"]
    assert [f.content for f in out.facts] == ["User mentioned that they switched to uv."]
    out = x.extract(session(("user", "Forget my phone number, I don't want it on file.")))
    assert out.forgets and not out.facts


def test_a_coaching_chat_reads_right() -> None:
    """ "actually scratch that, it was 81.5" corrects the number the user gave, not the date the
    extractor appended; "i hate them" after an instruction names nothing of its own."""
    s = session(
        ("user", "update: 80.5 kg this morning!"),
        ("agent", "Nice progress!"),
        ("user", "actually scratch that, it was 81.5"),
        ("user", "and never suggest protein shakes, i hate them"),
    )
    facts = [f.content for f in LocalExtractor().extract(s).facts]
    assert any(f.startswith("User mentioned that 81.5 kg this morning (") for f in facts), facts
    assert not [f for f in facts if "80.5" in f or f.startswith("User hates")], facts


def test_a_short_answer_is_shown_as_said_and_filler_inside_a_sentence_goes() -> None:
    assert is_fragment("Probably the 14th to 16th.") and is_fragment("3x a week, mostly running")
    assert not is_fragment("the 14th is fine") and not is_fragment("Maybe we'll go")  # sentences
    assert (
        memories_of("Which Python version? >> 3.12")
        == '(Asked by the agent: "Which Python version?") User mentioned: 3.12'
    )
    assert memories_of("Priya left the company btw, Tom is my lead now") == (
        "User mentioned that Priya left the company, Tom is User's lead now"
    )
    assert clean("I love it btw") == "I love it"  # the end of a sentence, as before


def test_an_answer_about_someone_the_question_named_is_kept_and_a_reason_is_not() -> None:
    said = memories_of("Does your mum have any preferences? >> she doesnt like spicy food at all")
    assert said.endswith("User mentioned that she doesn't like spicy food at all")
    assert memories_of("she doesnt like spicy food at all") == ""  # without the question, nobody is named
    assert memories_of("Anything else? >> pls forget about the weekend cooking thing, no time anymore") == ""
    assert memories_of("forget the poetry thing, we switched to uv") == "User mentioned that they switched to uv"
    assert memories_of("Budget per week? >> like 120 pounds max").endswith("User mentioned: like 120 pounds max")


def test_a_bare_yes_or_no_answers_a_question_about_something() -> None:
    assert bare_answer("yep", '(Asked by the agent: "Back to the 120 budget?")') == "yes"
    assert bare_answer("nope!", '(Asked by the agent: "Any allergies in the family?")') == "no"
    assert bare_answer("yes", '(Asked by the agent: "Does that sound good?")') is None  # about the talk itself
    assert bare_answer("yes", '(Asked by the agent: "Which one?")') is None  # not a yes/no question
    assert bare_answer("yes, the red one", '(Asked by the agent: "Any colour?")') is None  # more than yes
    assert memories_of("Still vegetarian? >> yes") == '(Asked by the agent: "Still vegetarian?") User said yes'


def test_greetings_requests_pls_and_a_past_tense_opening() -> None:
    assert memories_of("morning! can you book me a table for two") == ""  # a request, not a fact
    assert memories_of("can you remind me to take my insulin at 8pm") == (
        "User asked to be reminded: take User's insulin at 8pm"  # what to be reminded of is kept
    )
    assert memories_of("Plan is to move to Leeds in May") != ""  # "plan" alone is not a request
    assert memories_of("and pls remember my passport expires in August") == (
        "User asked to remember: User's passport expires in August"
    )
    assert memories_of("renewed the passport, all good") == "User renewed the passport, all good"
    # a participle of how one is, before a preposition, says "I'm" (it read "User tired of the rain" once)
    assert memories_of("Tired of the rain") == "User is tired of the rain"
    assert is_fragment("a filling, 2pm at Dr Okafor's") and not is_fragment("the one that's left")


def test_i_ve_after_a_filler_word_is_not_a_name() -> None:
    """ "but honestly I've switched to tea": the rule's fact stands (it was replaced by the whole clause,
    "User mentioned that  honestly User has switched ...", because "I've" looked like a name)."""
    said = memories_of("I love coffee but honestly I've switched to tea, coffee keeps me up at night.")
    assert said == "User loves coffee | User has switched to tea; coffee keeps User up at night"


def test_we_inside_an_i_statement_is_the_users_household() -> None:
    """ "I took our dog Biscuit" read "User took our dog Biscuit": "our" is now written as reported speech
    writes it, so the memory reads as English and its tie ("their dog Biscuit") is the user's."""
    assert memories_of("I took our dog Biscuit to the vet") == "User took their dog Biscuit to the vet"
    assert memories_of("I walked our dog and fed us breakfast") == "User walked their dog and fed them breakfast"
    assert "the US" in memories_of("I moved to the US last year")  # the country stays


def test_present_verbs_that_end_like_a_past_or_a_gerund() -> None:
    """ "I need a break" read "User need a break" (in the demo's first memory): "-eed" and vowel-less "-ing"
    words are base forms; the pasts of "-ee" verbs ("agreed") stay as they are."""
    said = third_person("I need a break and I bring my lunch", "User")
    assert said == "User needs a break and User brings User's lunch"
    assert third_person("I agreed and I freed up Friday", "Ann") == "Ann agreed and Ann freed up Friday"
