"""``python -m evaluation.wording``: do the local extractor's memories read as English?

Every memory of the embedded extractor is a first-person statement rewritten about its speaker
("I love my dog" → "User loves User's dog"), so a grammar slip shows in every recall ("User heards
a song"). Chat is typed loosely ("i dont like spicy food", "im a nurse", "btw ..."), and a memory
must still come out right. The cases are phrasing families, ``dev`` or ``heldout`` like the
write-path suite: rules are developed on ``dev``; ``heldout`` was written before the rules it
measures and is never read while writing them. A rewrite case is (statement, speaker, expected
rewrite); a chat case is (a user's turn, what its memories must say, what they must not).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from evaluation.writepath.cases import Split
from tasks.models import Event, Session
from tasks.providers.local_extractor import LocalExtractor
from tasks.textrules import third_person

Case = tuple[str, str, str]
#: A user's turn, phrases its memories must contain, phrases they must not.
ChatCase = tuple[str, tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    cases: tuple[Case, ...] = ()
    chat: tuple[ChatCase, ...] = ()


FAMILIES: tuple[Family, ...] = (
    # -- developed on ------------------------------------------------------------------------------
    Family("irregular past", "dev", (
        ("I heard a great song yesterday.", "User", "User heard a great song yesterday."),
        ("I ate sushi for lunch.", "User", "User ate sushi for lunch."),
        ("I forgot my keys at work.", "User", "User forgot User's keys at work."),
        ("I woke up early today.", "Ann", "Ann woke up early today."),
        ("I slept badly last night.", "User", "User slept badly last night."),
        ("I chose the blue one.", "User", "User chose the blue one."),
        ("I grew up in Ohio.", "User", "User grew up in Ohio."),
        ("I understood the plan.", "User", "User understood the plan."),
    )),
    Family("negative contraction", "dev", (
        ("I haven't talked to you in a while.", "User", "User hasn't talked to you in a while."),
        ("I haven't decided yet.", "Maria", "Maria hasn't decided yet."),
        ("I wasn't sure about it.", "User", "User wasn't sure about it."),
        ("I hadn't seen it before.", "User", "User hadn't seen it before."),
        ("I couldn't find it.", "User", "User couldn't find it."),
        ("I aren't going.", "User", "User isn't going."),
        ("I didn't like the movie.", "User", "User didn't like the movie."),
    )),
    Family("present, any speaker", "dev", (
        ("I guess so.", "Maria", "Maria guesses so."),
        ("I wonder what happened.", "Jon", "Jon wonders what happened."),
        ("I hope my kids like it.", "Ann", "Ann hopes Ann's kids like it."),
        ("I just love this place.", "User", "User just loves this place."),
        ("I personally think it works.", "User", "User personally thinks it works."),
        ("I rely on my phone.", "User", "User relies on User's phone."),
    )),
    # -- measured only (written before the rules) ----------------------------------------------------
    Family("irregular past (held out)", "heldout", (
        ("I drank too much coffee.", "User", "User drank too much coffee."),
        ("I fought with my brother.", "User", "User fought with User's brother."),
        ("I hid the present in the closet.", "User", "User hid the present in the closet."),
        ("I lent my bike to a friend.", "User", "User lent User's bike to a friend."),
        ("I froze the leftovers.", "User", "User froze the leftovers."),
        ("I swore I'd quit.", "User", "User swore User would quit."),
        ("I drew a picture of the lake.", "Gina", "Gina drew a picture of the lake."),
        ("I blew out the candles.", "User", "User blew out the candles."),
        ("I sought advice from my mentor.", "User", "User sought advice from User's mentor."),
        ("I bent the rules once.", "User", "User bent the rules once."),
        ("I shook his hand.", "User", "User shook his hand."),
        ("I tore my jacket.", "User", "User tore User's jacket."),
    )),
    Family("negative contraction (held out)", "heldout", (
        ("I haven't been there.", "User", "User hasn't been there."),
        ("I shouldn't eat sugar.", "User", "User shouldn't eat sugar."),
        ("I wouldn't mind.", "Tim", "Tim wouldn't mind."),
        ("I won't be late.", "User", "User won't be late."),
        ("I needn't worry.", "User", "User needn't worry."),
        ("I haven’t read it.", "User", "User hasn’t read it."),
    )),
    Family("present, any speaker (held out)", "heldout", (
        ("I adore my grandmother.", "Jolene", "Jolene adores Jolene's grandmother."),
        ("I reckon it'll rain.", "User", "User reckons it'll rain."),
        ("I suppose that works.", "Deborah", "Deborah supposes that works."),
        ("I doubt it.", "User", "User doubts it."),
        ("I really appreciate my team.", "Sam", "Sam really appreciates Sam's team."),
        ("I honestly prefer tea.", "User", "User honestly prefers tea."),
        ("I apply sunscreen daily.", "User", "User applies sunscreen daily."),
        ("I crave chocolate at night.", "Nate", "Nate craves chocolate at night."),
    )),
    # -- loosely typed chat: developed on ------------------------------------------------------------
    Family("chat: lower case, no apostrophes, fillers", "dev", chat=(
        ("i dont like spicy food", ("User doesn't like spicy food",), ("dont",)),
        ("my name is priya and i work as a nurse in leeds", ("User works as a nurse",), (" i ",)),
        ("im a nurse at the city hospital", ("User is a nurse",), ()),
        ("FYI I'm vegetarian now.", ("User is vegetarian",), ("FYI",)),
        ("i'm not a fan of horror movies tbh", ("User is not a fan of horror movies",), ("tbh",)),
        ("I cant stand loud restaurants", ("User can't stand loud restaurants",), ()),
        ("lets go with casa azul", ("Decision by User: go with casa azul",), ()),
        ("i've been learning spanish for 3 months", ("User has been learning spanish",), ()),
    )),
    Family("chat: what a fact goes on to say", "dev", chat=(
        ("i have two cats, milo and luna", ("User has two cats, milo and luna",), ()),
        ("I work at Google, mostly on search infrastructure.", ("Google, mostly on search infrastructure",), ()),
        ("I live in Lisbon, near the river.", ("User lives in Lisbon, near the river",), ()),
        ("I work at Google, which is great", ("User works at Google",), ()),
        ("I have a dog named Rex.", ("User has a dog named Rex",), ()),
    )),
    Family("chat: sentences in lower case", "dev", chat=(
        ("i dont really like tofu tbh. i love mushroom risotto though", ("User doesn't really like tofu",
         "User loves mushroom risotto"), ("tbh",)),
        ("i moved to york. its much quieter than leeds", ("User moved to york",), (". its", ". Its")),
        ("i have a dog. his name is rex", ("User has a dog",), (". his",)),
    )),
    Family("chat: a clause that goes on", "dev", chat=(
        ("im vegetarian now, been like 3 months", ("User is vegetarian",), ("mentioned that been",)),
        ("I drive a Prius, mostly for work", ("mostly for work",), ("mentioned that mostly",)),
        ("I have a cat, which I adopted in 2021", ("adopted in 2021",), ("mentioned that which",)),
    )),
    Family("chat: we, our, us in reported speech", "dev", chat=(
        ("we adopted a puppy last week", ("User mentioned that they adopted a puppy",), ("that we",)),
        ("We cancelled the Nopa dinner.", ("they cancelled the Nopa dinner",), ("that we",)),
        ("we're moving to Porto in the spring", ("they're moving to Porto",), ("that we",)),
        ("our kids love the beach", ("their kids love the beach",), ("our kids",)),
    )),
    # -- loosely typed chat: measured only (written before the rules) ----------------------------------
    Family("chat (held out)", "heldout", chat=(
        ("i havent been to japan yet but i really want to go", ("User hasn't been to japan",), (" i ",)),
        ("ive been vegan since 2019", ("User has been vegan since 2019",), ()),
        ("im training for a marathon in october", ("User is training for a marathon",), ()),
        ("my sister and i share an apartment in austin", ("User's sister and User share",), (" i ",)),
        ("i wasnt happy with the hotel in rome", ("User wasn't happy with the hotel",), ()),
        ("btw i work night shifts at the hospital", ("User works night shifts",), ("btw",)),
        ("i didnt like the new update tbh", ("User didn't like the new update",), ("tbh",)),
        ("doesnt matter, i prefer aisle seats anyway", ("User prefers aisle seats",), (" i ",)),
    )),
    Family("chat: sentences in lower case (held out)", "heldout", chat=(
        ("my daughter started school. she loves it so far", ("User's daughter started school",), (". she",)),
        ("i quit my job last week. feeling great about it tbh", ("User quit",), ("tbh",)),
        ("we adopted a cat. i named her luna", ("User named her luna",), (". i ",)),
        ("i'm not a morning person lol. i usually start work at 10", ("User usually starts work at 10",),
         ("lol", ". i ")),
        ("e.g. i like hiking and biking", ("User likes hiking",), ()),
    )),
    Family("chat: a clause that goes on (held out)", "heldout", chat=(
        ("i live in madrid, since 2020", ("since 2020",), ("mentioned that since",)),
        ("I work at Acme, mainly on billing", ("mainly on billing",), ("mentioned that mainly",)),
        ("I'm vegan now, for about two years", ("User is vegan",), ("mentioned that for",)),
        ("I play tennis, usually on sundays", ("usually on sundays",), ("mentioned that usually",)),
    )),
    Family("chat: we, our, us (held out)", "heldout", chat=(
        ("we just bought a house in Leeds", ("they just bought a house in Leeds",), ("that we",)),
        ("our neighbours are really loud", ("their neighbours",), ("our neighbours",)),
        ("We'll be in Paris next week.", ("they'll be in Paris",), ("that we",)),
        ("my brother visited us last weekend", ("brother visited",), (" us ",)),
        ("we usually eat dinner at 7", ("they usually eat dinner at 7",), ("that we",)),
    )),
    # -- round 9: a short answer to the agent's question ("Q? >> answer"), filler inside a sentence.
    # DEV used while writing the rule; HELD-OUT written with it, before its first run, only measured.
    Family("chat: a short answer, filler inside", "dev", chat=(
        ("Which Python version? >> 3.12", ("User mentioned: 3.12",), ("mentioned that 3.12",)),
        ("Do you have dates yet? >> Probably the 14th to 16th.", ("the 14th to 16th",), ("mentioned that probably",)),
        ("How often do you train? >> 3x a week, mostly running", ("3x a week, mostly running",),
         ("mentioned that 3x",)),
        ("Any budget? >> Around 600 euros total.", ("600 euros total",), ("mentioned that around",)),
        ("Priya left the company btw, Tom is my lead now", ("left the company, Tom",), ("btw",)),
    )),
    Family("chat: a short answer, filler inside (held out)", "heldout", chat=(
        ("What time works for you? >> Maybe 7pm on Friday", ("7pm on Friday",), ("mentioned that maybe",)),
        ("How many people are coming? >> About twelve, give or take", ("twelve",), ("mentioned that about",)),
        ("Which laptop did you go with? >> The 14-inch one", ("14-inch one",), ("mentioned that the",)),
        ("How long is the flight? >> Roughly 9 hours", ("9 hours",), ("mentioned that roughly",)),
        ("my flight got moved fyi, it lands at 9 now", ("lands at 9",), ("fyi",)),
    )),
    # -- round 9, from a family meal-planning chat: an answer about someone the question named, a reason
    # after a forget request, "like" before a number. DEV used while writing; HELD-OUT only measured.
    Family("chat: answers about someone, reasons, hedges", "dev", chat=(
        ("Does your mum have any preferences? >> she doesnt like spicy food at all", ("doesn't like spicy food",), ()),
        ("How is your son finding school? >> he loves it, especially maths", ("he loves it, especially maths",), ()),
        ("Anything else? >> pls forget about the weekend cooking thing, no time anymore", (), ("time anymore",)),
        ("no time for breakfast these days", ("no time for breakfast",), ("mentioned that time",)),
        ("Budget per week? >> like 120 pounds max", ("120 pounds max",), ("mentioned that like", "that Like")),
    )),
    Family("chat: answers about someone, reasons, hedges (held out)", "heldout", chat=(
        ("Does your dad have any allergies? >> he's allergic to penicillin", ("allergic to penicillin",), ()),
        ("How old is your daughter now? >> she turned 7 in May", ("turned 7",), ()),
        ("Any plans for the weekend? >> forget the hiking stuff, too tired", (), ("too tired",)),
        ("What's your rent? >> roughly 900 a month", ("900 a month",), ("mentioned that roughly",)),
        ("How old are the kids? >> like 6 and 9", ("6 and 9",), ("mentioned that like", "that Like")),
    )),
    # -- round 9: a bare yes or no to the agent's yes/no question about something. DEV used while writing
    # the rule; HELD-OUT written with it, before its first run, only measured.
    Family("chat: yes or no to a question about something", "dev", chat=(
        ("Okay! Back to the 120 budget? >> yep", ("Back to the 120 budget?", "User said yes"), ()),
        ("Any allergies in the family? >> nope", ("Any allergies in the family?", "User said no"), ()),
        ("Anything else? >> no thanks", (), ("said no",)),
        ("Here's the plan. Does that sound good? >> yes!", (), ("said yes",)),
    )),
    Family("chat: yes or no to a question about something (held out)", "heldout", chat=(
        ("Still vegetarian? >> yes", ("Still vegetarian?", "User said yes"), ()),
        ("Do you still want the window seat? >> yeah", ("window seat", "User said yes"), ()),
        ("Any pets at home? >> no", ("Any pets at home?", "User said no"), ()),
        ("Is that everything for today? >> yep", (), ("said yes",)),
    )),
    # -- round 9: a list's last item after "and" is not a clause of its own. DEV used while writing the
    # rule; HELD-OUT written with it, before its first run, only measured.
    Family("chat: a list that ends in and", "dev", chat=(
        ("there's 4 of us, me, my husband Dev and our twins", ("twins",), ()),
        ("We are a family of four: me, my husband and our two kids.", ("two kids",), ()),
        ("I started a new job and my commute is 10 minutes now", ("commute is 10 minutes",), ()),
    )),
    Family("chat: a list that ends in and (held out)", "heldout", chat=(
        ("I live with my sister and our cat", ("cat",), ()),
        ("I'm bringing my laptop and the charger", ("charger",), ()),
        ("I sold my car and my bike is next", ("sold",), ()),
    )),
    # -- round 9, from a personal-assistant and a road-trip chat: greetings before a request, "pls
    # remember", a sentence that starts with its past-tense verb or with "Me", a possessive in a short
    # answer, "change of plans". DEV used while writing; HELD-OUT written with each rule, before its
    # first run, only measured.
    Family("chat: greetings, pls, past tense first", "dev", chat=(
        ("morning! can you remind me what I need for the dentist", (), ("remind User",)),
        ("and pls remember my passport expires in August", ("asked to remember", "passport expires in August"), ()),
        ("hi. renewed the passport, all good", ("User renewed the passport",), ()),
        ("Is it a check-up or treatment? >> a filling, 2pm at Dr Okafor's", ("User mentioned: a filling",), ()),
        # from a road-trip chat: "Me" opening a sentence, "change of plans"
        ("me and two friends want to do a road trip in May", ("User and two friends",), ()),
        ("change of plans, I'm flying on Friday now", ("User is flying on Friday",), ("of plans",)),
    )),
    Family("chat: greetings, pls, past tense first (held out)", "heldout", chat=(
        ("good evening, could you help me plan a birthday party", (), ("help User",)),
        ("plz remember that my gym membership ends in March", ("asked to remember", "membership ends in March"), ()),
        ("booked the flights to Rome, finally", ("User booked the flights to Rome",), ()),
        ("Where's the party? >> my sister's place, around 7", ("User mentioned: User's sister's place",), ()),
        ("Me and my sister are going to Rome in June", ("User and User's sister are going",), ()),
        ("plan change: we're leaving on Sunday instead", ("leaving on Sunday",), ("that change",)),
    )),
)  # fmt: skip


def memories_of(text: str) -> str:
    """What the local extractor remembers of one user turn ("question >> answer": the agent's question,
    then the user's turn), its facts joined by " | "."""
    at = datetime(2023, 5, 8, 12, 0, tzinfo=UTC)
    asked, _, said = text.rpartition(" >> ")
    event = Event(id="e1", author="user", role="user", text=said, timestamp=at)
    question = Event(id="e0", author="agent", role="agent", text=asked, timestamp=at)
    events = (question, event) if asked else (event,)
    turn = Session(app_name="wording", user_id="u", session_id="s", started_at=at, ended_at=at, events=events)
    return " | ".join(f.content for f in LocalExtractor().extract(turn).facts)


def _chat_right(case: ChatCase, said: str) -> bool:
    _, must, must_not = case
    return all(m in said for m in must) and not any(n in f" {said} " for n in must_not)


def _results(fam: Family) -> list[tuple[bool, str, str]]:
    """(right, expected, got) per case of the family."""
    out = [(got == want, want, got) for text, who, want in fam.cases for got in (third_person(text, who),)]
    for case in fam.chat:
        said = memories_of(case[0])
        out.append((_chat_right(case, said), f"{case[1]} without {case[2]}", said))
    return out


Results = list[tuple[Family, list[tuple[bool, str, str]]]]


def results(families: Sequence[Family] = FAMILIES) -> Results:
    """Every family with its cases' (right, expected, got); the extractor runs once per chat case."""
    return [(fam, _results(fam)) for fam in families]


def score(families: Sequence[Family] = FAMILIES, done: Results | None = None) -> dict[str, tuple[int, int]]:
    """Per split, (cases right, cases)."""
    out: dict[str, tuple[int, int]] = {}
    for fam, found in done if done is not None else results(families):
        right, total = out.get(fam.split, (0, 0))
        out[fam.split] = (right + sum(r for r, _, _ in found), total + len(found))
    return out


def dev_failures(families: Sequence[Family] = FAMILIES, done: Results | None = None) -> list[tuple[str, str]]:
    """(expected, got) for failing ``dev`` cases only: held-out failures are never shown."""
    found = done if done is not None else results([f for f in families if f.split == "dev"])
    return [(want, got) for fam, rows in found if fam.split == "dev" for right, want, got in rows if not right]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--failures", action="store_true", help="list failing dev cases")
    args = parser.parse_args(argv)
    done = results()
    for split, (right, total) in score(done=done).items():
        print(f"{split:8} {right:3d}/{total:3d} {right / total:6.1%}")
    if args.failures:
        for want, got in dev_failures(done=done):
            print(f"  want {want!r}\n   got {got!r}")


if __name__ == "__main__":
    main()
