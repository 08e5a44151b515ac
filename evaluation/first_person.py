"""Questions the user asks about themselves, in other words than they told it, end to end.

Users ask "What do I do for a living?" of a memory that says "User works as a nurse at St Mary's";
an agent preloads memories with the user's own message. Each user here told twenty things in chat
turns (one session each, five days apart); each question asks one back in the first person and in
other words, and top-1 / top-3 is right when the hit cites the turn that told it. NONE questions ask
what was never told: recall should abstain. DEV and HELD-OUT were written together, before any
change; DEV failures were read (they showed two wrong supersessions on the write path, an episode
repeating its memory, and paraphrases that fell under the abstention threshold), HELD-OUT's never.

``synthetic first person``: the synthetic set's questions asked in the first person ("What does the
user like to drink?" -> "What do I like to drink?"), answerable ones abstained on and unanswerable
ones answered. Run ``python -m evaluation.first_person [--reranker] [--plain]`` (``--plain``: the
question alone, without its statement form).
"""

from __future__ import annotations

import argparse
import re
import tempfile
from datetime import UTC, datetime, timedelta

from evaluation.probe_modes import mode_store, shared_embedder
from evaluation.runner import load_dataset
from evaluation.temporal import told_session
from tasks.clock import utc
from tasks.ingest.run import ingest_sessions
from tasks.models import Session
from tasks.recall.recaller import Recaller
from tasks.settings import Settings

NOW = datetime(2026, 10, 1, 12, tzinfo=UTC)
#: (what the user said, questions that ask it back).
DEV = (
    ("Hi! So my sister Priya just moved to Bristol for work, she loves it there.",
     ("Where does Priya live now?", "Which city did my sister move to?")),
    ("My brother Dev lives in Leeds with his wife.", ("Where does my brother live?",)),
    ("We got a puppy last week! We called her Biscuit, she's a beagle.",
     ("What's my dog called?", "What breed is Biscuit?")),
    ("I drive a 2015 Honda Civic, it's old but reliable.", ("What car do I have?",)),
    ("I work as a nurse at St Mary's hospital, mostly night shifts.",
     ("What do I do for a living?", "Where do I work?")),
    ("Our flat is on the fourth floor and there's no lift, so groceries are a workout lol",
     ("Which floor do I live on?",)),
    ("Honestly I can't stand horror films, they give me nightmares.", ("What kind of movies do I dislike?",)),
    ("I've got pottery class every Tuesday evening at the community centre.", ("When is my pottery class?",)),
    ("I take metformin for my type 2 diabetes, twice a day.",
     ("What medication am I on?", "Do I have any health conditions?")),
    ("My dentist is Dr. Okafor on Mill Road.", ("Who is my dentist?",)),
    ("We're going to Lisbon for our anniversary in May.", ("Where are we going for our anniversary?",)),
    ("I'm learning Japanese on Duolingo, 200 day streak!", ("Which language am I studying?",)),
    ("I stopped eating meat last year, I'm fully vegetarian now.", ("What's my diet like?",)),
    ("Been getting really into bouldering lately, I go twice a week.", ("What sport have I taken up?",)),
    ("Best book I read this year was Piranesi, hands down.", ("What was my favourite book this year?",)),
    ("Our daughter Mia just started at Oakwood Primary.",
     ("What school does Mia go to?", "Where does my daughter go to school?")),
    ("My birthday is on the 3rd of March.", ("When is my birthday?",)),
    ("I switched to a Pixel 8 last month, no more iPhone for me.", ("What phone do I use?",)),
    ("My usual is an oat flat white, extra hot.", ("What's my coffee order?",)),
    ("My partner Tom is allergic to cats, so no cats for us sadly.",
     ("Who in my family has an allergy?", "Why can't we get a cat?")),
)  # fmt: skip
DEV_NONE = (
    "What's my blood type?",
    "What is my cat's name?",
    "Where did I go to university?",
    "What's my favourite football team?",
    "How old is my grandmother?",
)
HELD = (
    ("My best friend Grace is getting married in Kyoto next spring!",
     ("Where is Grace's wedding?", "Who is getting married in Japan?")),
    ("My dad lives in Glasgow, he retired there.", ("Where does my father live?",)),
    ("We adopted two rescue cats, Miso and Tofu.", ("What are my pets' names?", "Do I have any pets?")),
    ("I ride a Brompton to work every day, rain or shine.", ("How do I get to work?",)),
    ("I'm a data analyst at a small insurance firm in Reading.", ("What's my job?", "What industry do I work in?")),
    ("Our house has a tiny garden but we grow tomatoes and chillies in it.", ("What do we grow at home?",)),
    ("I really don't like coriander, it tastes like soap to me.", ("Which herb do I hate?",)),
    ("Choir practice is on Thursday nights, 7 till 9.", ("When do I have choir?",)),
    ("I'm on levothyroxine for my thyroid, every morning before breakfast.", ("What pills do I take?",)),
    ("My physio is called Hannah, she's been great with my shoulder.", ("Who is treating my shoulder?",)),
    ("We booked a week in Crete for August with the kids.", ("Where are we going on holiday this summer?",)),
    ("I've been practising Spanish with a tutor on Zoom.", ("What language am I learning?",)),
    ("I'm lactose intolerant, so oat milk for me always.", ("Can I have dairy?",)),
    ("Started running with a club on Saturday mornings, parkrun mostly.", ("What do I do on Saturday mornings?",)),
    ("Watched Severance over the weekend and I'm obsessed.", ("Which TV show am I into?",)),
    ("Our son Leo is in year 3 at St John's.", ("What year is my son in?",)),
    ("Our wedding anniversary is the 14th of June.", ("When is our anniversary?",)),
    ("I use a ThinkPad X1 for work, Linux on it.", ("What laptop do I have?",)),
    ("I always order the pad thai at Busaba, never anything else.", ("What do I get at the Thai place?",)),
    ("My mum has a nut allergy, so we keep the kitchen nut free.",
     ("Who has a nut allergy?", "Why is our kitchen nut free?")),
)  # fmt: skip
HELD_NONE = (
    "What's my star sign?",
    "What is my dog's name?",
    "Which car do I drive?",
    "What's my middle name?",
    "Where was I born?",
)

SPLITS = {"dev": (DEV, DEV_NONE), "held-out": (HELD, HELD_NONE)}
#: The synthetic set's third-person wording, and the asker's own.
_FIRST = (
    ("does the user", "do I"), ("has the user", "have I"), ("is the user", "am I"), ("was the user", "was I"),
    ("did the user", "did I"), ("should the user", "should I"), ("can the user", "can I"),
    ("would the user", "would I"), ("the user's", "my"), ("The user's", "My"),
)  # fmt: skip


def sessions(split: str) -> list[Session]:
    facts = SPLITS[split][0]
    return [
        told_session("asked", split, f"{split}-{i}", text, NOW - timedelta(days=5 * (len(facts) - i)), "Good to know!")
        for i, (text, _) in enumerate(facts)
    ]


def first_person(question: str) -> str:
    """ "What does the user like to drink?" -> "What do I like to drink?"."""
    for third, first in _FIRST:
        question = question.replace(third, first)
    question = re.sub(r"\b(to|for|with|about|of|contact|remind|tell|call) the user\b", r"\1 me", question)
    return question.replace("the user", "I")


def measure(*modes: Settings) -> list[dict[str, dict[str, int]]]:
    """Per mode and split: questions asked, top-1 and top-3 right, answerable abstained; unanswerable
    abstained. The modes differ in recall settings only: the sessions are ingested once, with the first."""
    results: list[dict[str, dict[str, int]]] = [{} for _ in modes]
    with tempfile.TemporaryDirectory() as tmp:
        probe = modes[0].model_copy(update={"store_uri": f"{tmp}/probe"})
        ingest_sessions([s for split in SPLITS for s in sessions(split)], probe)
        data = load_dataset("synthetic")
        synthetic = modes[0].model_copy(update={"store_uri": f"{tmp}/synthetic", "forgotten_retention_days": 36_500.0})
        ingest_sessions(list(data.sessions), synthetic)
        # Asked the day after the last session (not on the wall clock: recency weighs in the verdict).
        asked_at = max(utc(x.ended_at) for x in data.sessions) + timedelta(days=1)
        embedder = shared_embedder(modes[0])  # a question without a statement form is embedded once
        for n, (mode, out) in enumerate(zip(modes, results, strict=True)):
            # Each mode reads its own copy: a recall counts its hits' accesses, which weigh in the next.
            probed, asked_of = (mode_store(x.store_uri, str(n)) for x in (probe, synthetic))
            with Recaller(mode.model_copy(update={"store_uri": probed}), embedder=embedder) as recaller:
                out.update(_probe_rows(recaller))
            row = out["synthetic first person"] = {"asked": 0, "abstained": 0, "none": 0, "none abstained": 0}
            with Recaller(mode.model_copy(update={"store_uri": asked_of}), embedder=embedder) as recaller:
                for q in data.questions:
                    asked = first_person(q.question)
                    abstained = not recaller.recall_result(asked, q.app_name, q.user_id, now=asked_at).confident
                    row["asked" if q.answerable else "none"] += 1
                    row["abstained" if q.answerable else "none abstained"] += abstained
    return results


def _probe_rows(recaller: Recaller) -> dict[str, dict[str, int]]:
    rows: dict[str, dict[str, int]] = {}
    for split, (facts, none) in SPLITS.items():
        row = rows[split] = {"asked": 0, "top1": 0, "top3": 0, "abstained": 0, "none": 0, "none abstained": 0}
        for i, (_, questions) in enumerate(facts):
            for question in questions:
                result = recaller.recall_result(question, "asked", split, k=5, now=NOW)
                cited = [f"{split}-{i}-u" in h.source_event_ids for h in result.hits]
                row["asked"] += 1
                row["top1"] += bool(cited[:1] and cited[0])
                row["top3"] += any(cited[:3])
                row["abstained"] += not result.confident
        for question in none:
            row["none"] += 1
            row["none abstained"] += not recaller.recall_result(question, "asked", split, now=NOW).confident
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reranker", action="store_true", help="with the cross-encoder reranker")
    parser.add_argument("--plain", action="store_true", help="the question alone, without its statement form")
    args = parser.parse_args()
    settings = Settings(
        recall_reranker="cross-encoder" if args.reranker else "none", recall_statement_query=not args.plain
    )
    for name, row in measure(settings)[0].items():
        ranked = f"top-1 {row['top1']}/{row['asked']}  top-3 {row['top3']}/{row['asked']}  " if "top1" in row else ""
        print(f"{name:24s} {ranked}answerable abstained {row['abstained']}/{row['asked']}  "
              f"unanswerable abstained {row['none abstained']}/{row['none']}")  # fmt: skip


if __name__ == "__main__":
    main()
