"""Decisions and outcomes in agent dialogs, asked back in the user's own words (round 17).

An assistant's user decides things by answering: "Do you want oak or walnut worktops?" "walnut".
Each user here has eighteen short dialogs with an agent: offers answered by a choice, decisions and
outcomes told outright, (written second) proposals the user declines or corrects ("No, too
expensive"), and (written third) recaps by the agent that the user agrees to ("To confirm: ..."
"Perfect"). Every decision is asked back in the first person ("What worktops did I choose for the
kitchen?"); a question is right at rank r when the r-th hit cites the deciding turn, and its answer
word must be said by one of the top three hits. A few questions ask about decisions never told.
Each part's DEV and HELD-OUT were written together before its first run; only DEV's misses were read.

``python -m evaluation.decisions [--reranker]``
"""

from __future__ import annotations

import argparse
import tempfile
from datetime import UTC, datetime, timedelta
from typing import Literal

from tasks.ingest.run import ingest_sessions
from tasks.models import Event, Session
from tasks.recall.recaller import Recaller
from tasks.settings import Settings

NOW = datetime(2026, 10, 1, 12, tzinfo=UTC)
#: One dialog: turns ("A: " the agent, "U: " the user), the deciding user turn's index, (question, answer word).
Dialog = tuple[tuple[str, ...], int, tuple[tuple[str, str], ...]]

DEV: tuple[Dialog, ...] = (
    (("A: I found two hotels near the venue: Hotel Aurora at 140 euros a night and the Parkside Inn at 95.",
      "U: Let's go with the Parkside Inn."), 1,
     (("Which hotel did I pick?", "Parkside"), ("Where am I staying for the trip?", "Parkside"))),
    (("U: Can you help me pick a laptop? Budget is 1200.", "A: The ThinkPad T14 or the MacBook Air M3 both fit.",
      "U: I'll take the MacBook Air."), 2, (("Which laptop did I decide on?", "MacBook"),)),
    (("A: Would you prefer a morning or evening slot for the dentist?", "U: Morning, before 9 if possible."), 1,
     (("When do I prefer dentist appointments?", "morning"),)),
    (("U: We decided to name the baby Aurelia.",), 0, (("What name did we choose for the baby?", "Aurelia"),)),
    (("U: After comparing, I went with the Vanguard index fund instead of the robo-advisor.",), 0,
     (("Which investment did I choose?", "Vanguard"),)),
    (("A: Shall I book the 7:15 train or the 9:40?", "U: The 9:40, I'm not a morning person."), 1,
     (("Which train am I taking?", "9:40"),)),
    (("U: Outcome of the interview: I got the job at Helix Labs, starting in March!",), 0,
     (("Did I get the job?", "Helix"), ("When do I start my new job?", "March"))),
    (("U: The landlord agreed to lower the rent to 1100.",), 0, (("What's my rent now?", "1100"),)),
    (("A: For the kitchen, do you want oak or walnut worktops?", "U: walnut"), 1,
     (("What worktops did I choose for the kitchen?", "walnut"),)),
    (("U: We settled on Portugal for the summer holiday, the Algarve.",), 0,
     (("Where are we going on holiday?", "Algarve"),)),
    # written second, with HELD-OUT's last five: the user declines or corrects what the agent proposed
    (("A: Shall I book the Hilton for you?", "U: No, too expensive."), 1,
     (("Why didn't I want the Hilton?", "expensive"),)),
    (("A: Want me to add mushrooms to the shopping list?", "U: Nope, I hate mushrooms."), 1,
     (("Which food do I hate?", "mushroom"),)),
    (("A: Should I schedule the call for Monday?", "U: Not Monday, I'm off that day. Tuesday works."), 1,
     (("When is the call?", "Tuesday"),)),
    (("A: I'll send the invoice to your work email, ok?", "U: No, send it to my personal one, jo.mills@fastmail.com"),
     1, (("Which email should invoices go to?", "fastmail"),)),
    (("A: Do you still want the gym reminder at 6am?", "U: No, make it 7 from now on."), 1,
     (("When is my gym reminder?", "7"),)),
    # written third, with HELD-OUT's last three: the agent recaps, the user agrees (the deciding turn is the recap)
    (("A: To confirm: dinner for 4 at Wagamama on Friday at 7pm.", "U: Perfect, thanks!"), 0,
     (("Where is dinner on Friday?", "Wagamama"),)),
    (("A: So that's the 3-bed house on Elm Road, offer of 410k. Shall I send it?", "U: Yes, send it."), 0,
     (("How much did I offer for the house?", "410"),)),
    (("A: Summary: you'll take the Lisbon flight on 3 May, returning 10 May.", "U: Yes that's right."), 0,
     (("When do I fly back from Lisbon?", "10 May"),)),
)  # fmt: skip
DEV_NONE = ("Which car did I buy?", "What did I name my cat?", "Which gym did I join?")
HELD: tuple[Dialog, ...] = (
    (("A: Two venues are free on the 12th: the Old Mill and the Glasshouse.", "U: Book the Glasshouse."), 1,
     (("Which venue did I book?", "Glasshouse"),)),
    (("U: I need a new phone, something under 500.", "A: The Pixel 8a or the Galaxy A55 would do.",
      "U: Going with the Pixel."), 2, (("Which phone did I choose?", "Pixel"),)),
    (("A: Do you want the aisle or the window seat?", "U: Window please."), 1, (("Which seat do I like?", "window"),)),
    (("U: We finally picked a name for the puppy: Juniper.",), 0, (("What did we call the puppy?", "Juniper"),)),
    (("U: In the end I chose the fixed-rate mortgage over the tracker.",), 0,
     (("What kind of mortgage did I go for?", "fixed"),)),
    (("A: The workshop runs on Tuesday or Thursday evenings, which suits you?", "U: Thursday works better."), 1,
     (("Which evening is my workshop?", "Thursday"),)),
    (("U: Good news: my visa application was approved yesterday!",), 0, (("What happened with my visa?", "approved"),)),
    (("U: The garage said the repair will cost 850 and I said go ahead.",), 0,
     (("How much is the car repair?", "850"),)),
    (("A: Paint colour for the bedroom: sage green or dusty blue?", "U: dusty blue"), 1,
     (("What colour am I painting the bedroom?", "blue"),)),
    (("U: We agreed to split the wedding costs with Sam's parents.",), 0,
     (("Who are we sharing the wedding costs with?", "Sam"),)),
    (("A: Shall I reserve the window table again?", "U: No, somewhere quieter this time, it was too loud."), 1,
     (("What kind of table do I want?", "quiet"),)),
    (("A: Want me to order the usual oat milk?", "U: No, switch to almond milk."), 1,
     (("What milk do I want?", "almond"),)),
    (("A: Should I book your dentist for Friday?", "U: Not Friday, I have a work trip. Any day next week is fine."), 1,
     (("Why can't I do Friday?", "trip"),)),
    (("A: I'll ship it to your home address, right?", "U: No, ship it to the office at 12 King Street."), 1,
     (("Where should deliveries go?", "King"),)),
    (("A: Keep the weekly report on Mondays?", "U: No, Fridays please."), 1,
     (("When should I get the weekly report?", "Friday"),)),
    (("A: Just to recap, the plumber comes Tuesday between 8 and 10.", "U: Great."), 0,
     (("When is the plumber coming?", "Tuesday"),)),
    (("A: Your order: two large pizzas, one margherita and one pepperoni, delivered at 8. Correct?", "U: Correct!"), 0,
     (("What pizzas did I order?", "margherita"),)),
    (("A: Okay, I've noted the kids' dentist appointment for 14 June at 4pm. Anything else?", "U: No, that's all."), 0,
     (("When is the kids' dentist appointment?", "June"),)),
)  # fmt: skip
HELD_NONE = ("Which school did we choose for our son?", "What flight did I book?", "Which restaurant did I reserve?")
SPLITS = {"dev": (DEV, DEV_NONE), "held-out": (HELD, HELD_NONE)}


def dialog(user: str, session_id: str, turns: tuple[str, ...], at: datetime) -> Session:
    """The turns as a session (event ids ``<session_id>-<index>``), closed by the agent's "noted"."""
    events = []
    for i, turn in enumerate((*turns, "A: Great, noted!")):
        role: Literal["user", "agent"] = "user" if turn.startswith("U:") else "agent"
        events.append(Event(id=f"{session_id}-{i}", author=role, role=role, text=turn[3:],
                            timestamp=at + timedelta(minutes=i)))  # fmt: skip
    return Session(app_name="decide", user_id=user, session_id=session_id, started_at=at,
                   ended_at=at + timedelta(minutes=len(events)), events=tuple(events))  # fmt: skip


def sessions(split: str) -> list[Session]:
    cases = SPLITS[split][0]
    return [dialog(split, f"{split}-{i}", turns, NOW - timedelta(days=4 * (len(cases) - i)))
            for i, (turns, _, _) in enumerate(cases)]  # fmt: skip


def measure(settings: Settings) -> dict[str, dict[str, int]]:
    """Per split: questions, top-1 / top-3 citing the deciding turn, answer word in the top 3, answerable
    abstained; unanswerable questions and those abstained on."""
    results: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        mode = settings.model_copy(update={"store_uri": tmp})
        ingest_sessions([s for split in SPLITS for s in sessions(split)], mode)
        with Recaller(mode) as recaller:
            for split, (cases, none) in SPLITS.items():
                row = results[split] = dict.fromkeys(("asked", "top1", "top3", "said", "abstained"), 0)
                for i, (_, deciding, questions) in enumerate(cases):
                    for question, word in questions:
                        result = recaller.recall_result(question, "decide", split, k=5, now=NOW)
                        cited = [f"{split}-{i}-{deciding}" in h.source_event_ids for h in result.hits]
                        row["asked"] += 1
                        row["top1"] += bool(cited[:1] and cited[0])
                        row["top3"] += any(cited[:3])
                        row["said"] += any(word.lower() in h.content.lower() for h in result.hits[:3])
                        row["abstained"] += not result.confident
                row["none"] = len(none)
                row["none abstained"] = sum(
                    not recaller.recall_result(q, "decide", split, now=NOW).confident for q in none
                )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reranker", action="store_true", help="with the cross-encoder reranker")
    settings = Settings(recall_reranker="cross-encoder" if parser.parse_args().reranker else "none")
    for name, row in measure(settings).items():
        print(f"{name:9s} top-1 {row['top1']}/{row['asked']}  top-3 {row['top3']}/{row['asked']}  "
              f"answer in top 3 {row['said']}/{row['asked']}  answerable abstained {row['abstained']}/{row['asked']}  "
              f"unanswerable abstained {row['none abstained']}/{row['none']}")  # fmt: skip


if __name__ == "__main__":
    main()
