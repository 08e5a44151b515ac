"""Two-person conversations for the attribution probe (round 30), written for it after the contrast rule
was built on LoCoMo-dev and before the rule ever read them.

Each conversation has questions about what one person said (answerable, many of them with words that
the other person said too: a quoted question, a shared hobby, a place both name) and the same kind of
question asked of the wrong person (unanswerable, as LoCoMo's adversarial questions swap a name).
DEV may be printed case by case; HELD-OUT is only counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Conversation:
    people: tuple[str, str]
    #: Sessions as (ISO date, [(speaker, text), ...]).
    sessions: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    answerable: tuple[str, ...]
    unanswerable: tuple[str, ...]


def C(people: tuple[str, str], sessions: list[tuple[str, list[tuple[str, str]]]], answerable: list[str],
      unanswerable: list[str]) -> Conversation:  # fmt: skip
    return Conversation(people, tuple((d, tuple(t)) for d, t in sessions), tuple(answerable), tuple(unanswerable))


# fmt: off
DEV: list[Conversation] = [
    C(("Priya", "Tomas"), [
        ("2024-03-02", [
            ("Priya", "Hey Tomas! I finally signed up for a ceramics course at the community college."),
            ("Tomas", "That's great! How long have you been into ceramics?"),
            ("Priya", "About three years now, it started as a way to unwind after work."),
            ("Tomas", "Nice. I ran the city half marathon last Sunday, finished in 1:52."),
            ("Priya", "Wow, congrats! Was it your first race?"),
            ("Tomas", "Second one. My knee hurt a bit at the end but I'm fine."),
            ("Priya", "My sister Anika is visiting from Mumbai next week, I can't wait."),
            ("Tomas", "Have you ever done a half marathon?"),
            ("Priya", "No way, I prefer yoga in the mornings."),
        ]),
        ("2024-04-10", [
            ("Tomas", "Big news, I adopted a tabby cat named Pixel from the shelter."),
            ("Priya", "Aww! I've always wanted a dog, maybe someday."),
            ("Tomas", "What are you working on these days?"),
            ("Priya", "I'm glazing a set of blue bowls for my mom's birthday."),
            ("Tomas", "I started learning Portuguese because we're moving to Lisbon in the fall."),
            ("Priya", "Lisbon is beautiful! I visited it in 2019 with my college friends."),
        ]),
        ("2024-05-05", [
            ("Priya", "I sprained my wrist, so no wheel work for a month. Reading mystery novels meanwhile."),
            ("Tomas", "Oh no, sorry Priya! A ceramics break must be hard when it's how you relax and keep busy."),
            ("Tomas", "I went scuba diving in Malta over the long weekend, saw an octopus!"),
            ("Priya", "Have you ever gone scuba diving at night?"),
            ("Tomas", "Not yet, night diving scares me a little."),
            ("Priya", "I did a night dive in Thailand once, the plankton glowed."),
            ("Tomas", "My brother Felix got engaged to his girlfriend of five years."),
            ("Priya", "Congrats to Felix! Engagements are the best news."),
        ]),
    ], answerable=[
        "How long has Priya been doing ceramics?",
        "When did Tomas run the half marathon?",
        "What is the name of Tomas's cat?",
        "What is Priya making for her mom's birthday?",
        "When did Priya visit Lisbon?",
        "Why is Tomas learning Portuguese?",
        "What does Priya do in the mornings?",
        "What does Priya do to keep busy during her ceramics break?",
        "Where did Tomas go scuba diving?",
        "Where did Priya do a night dive?",
        "Who got engaged in Tomas's family?",
    ], unanswerable=[
        "What is the name of Priya's cat?",
        "How long has Tomas been doing ceramics?",
        "What was Priya's time in the half marathon?",
        "Why is Priya learning Portuguese?",
        "Who is visiting Tomas from Mumbai?",
        "What is Tomas glazing for his mom's birthday?",
        "What did Priya see while scuba diving in Malta?",
        "Why did Tomas stop doing ceramics for a month?",
    ]),
    C(("Elena", "Marcus"), [
        ("2024-05-18", [
            ("Marcus", "Elena! I quit the bank, I'm starting my own bakery downtown."),
            ("Elena", "No way, that's brave! What made you do it?"),
            ("Marcus", "I've been baking sourdough every weekend for ten years, it felt like time."),
            ("Elena", "Love it. I just planted tomatoes and basil in my new garden."),
            ("Marcus", "What else are you growing?"),
            ("Elena", "Peppers and some strawberries for my daughter Lucia."),
            ("Marcus", "Do you bake too?"),
            ("Elena", "Not really, I mostly cook Greek food, my grandmother taught me."),
        ]),
        ("2024-06-30", [
            ("Elena", "I started guitar lessons, my teacher says I'm a fast learner."),
            ("Marcus", "Cool! I played bass in a band back in college."),
            ("Elena", "How is the bakery going?"),
            ("Marcus", "We opened on June 1st and sold out of croissants by noon."),
            ("Elena", "I'm running a 10K for the children's hospital in August."),
            ("Marcus", "I'll come cheer you on!"),
        ]),
        ("2024-08-02", [
            ("Marcus", "The oven broke during the morning rush, we lost two hundred loaves."),
            ("Elena", "That's awful, Marcus. Losing a whole morning of bread must hurt the bakery."),
            ("Elena", "Lucia won the school spelling bee on Tuesday!"),
            ("Marcus", "Tell her congrats! Did you ever compete in a spelling bee?"),
            ("Elena", "Once, in fourth grade, I went out on 'rhythm'."),
            ("Marcus", "I'm thinking of taking Spanish classes at night."),
            ("Elena", "Do it, I took Spanish in high school and still remember some."),
        ]),
    ], answerable=[
        "Why did Marcus start a bakery?",
        "What is Elena growing in her garden?",
        "Who taught Elena to cook Greek food?",
        "When did Marcus's bakery open?",
        "What instrument did Marcus play in college?",
        "What is Elena running in August?",
        "What did Elena start learning?",
        "What happened to Marcus's oven?",
        "What did Lucia win?",
        "What word did Elena go out on in the spelling bee?",
        "What classes is Marcus thinking of taking?",
    ], unanswerable=[
        "Why did Elena start a bakery?",
        "What is Marcus growing in his garden?",
        "Who taught Marcus to cook Greek food?",
        "What is the name of Marcus's daughter?",
        "When did Elena's bakery open?",
        "What is Marcus running for the children's hospital?",
        "What happened to Elena's oven?",
        "Where did Marcus take Spanish?",
    ]),
]

HELD: list[Conversation] = [
    C(("Hana", "Olu"), [
        ("2024-02-11", [
            ("Hana", "Olu, I sold my first landscape painting at the art fair!"),
            ("Olu", "Amazing! What did you paint?"),
            ("Hana", "A misty lake at dawn, it took me two months."),
            ("Olu", "I've been painting portraits of my grandparents lately."),
            ("Hana", "That's so sweet. Do you use oils?"),
            ("Olu", "Watercolors, oils take too long to dry for me."),
            ("Hana", "I'm flying to Osaka in April to see my cousin Kenji."),
            ("Olu", "I went to Japan once for a work conference in Tokyo."),
        ]),
        ("2024-03-20", [
            ("Olu", "I got promoted to head nurse at St. Mary's!"),
            ("Hana", "Congratulations! How long have you worked there?"),
            ("Olu", "Six years this May."),
            ("Hana", "I'm training my puppy Miso to stop chewing shoes."),
            ("Olu", "Ha, my parrot Kiwi chews everything too."),
            ("Hana", "Have you ever thought about getting a dog?"),
            ("Olu", "Not with my shifts, it wouldn't be fair to the dog."),
        ]),
        ("2024-04-28", [
            ("Hana", "Osaka was wonderful, Kenji took me to a sumo tournament."),
            ("Olu", "Sumo! I've only seen it on TV. Did you eat a lot of takoyaki?"),
            ("Hana", "Every single day, and I bought a ceramic teapot at a market."),
            ("Olu", "My sister Ada had a baby girl, her name is Zuri."),
            ("Hana", "Congratulations, Auntie Olu! Babies are such a joy."),
            ("Olu", "I twisted my ankle playing basketball, so no gym this month."),
            ("Hana", "Sorry about the ankle, Olu! No gym must be hard for you, rest up."),
        ]),
    ], answerable=[
        "What did Hana paint for the art fair?",
        "Who does Olu paint portraits of?",
        "What paint does Olu use?",
        "Who is Hana visiting in Osaka?",
        "Where did Olu go in Japan?",
        "How long has Olu worked at St. Mary's?",
        "What is the name of Hana's puppy?",
        "Why doesn't Olu get a dog?",
        "What did Kenji take Hana to in Osaka?",
        "What did Hana buy at a market in Osaka?",
        "What is the name of Olu's niece?",
        "How did Olu hurt his ankle?",
    ], unanswerable=[
        "What did Olu paint for the art fair?",
        "Who does Hana paint portraits of?",
        "Who is Olu visiting in Osaka?",
        "What job was Hana promoted to?",
        "What is the name of Olu's puppy?",
        "What does Hana's parrot chew?",
        "How did Hana hurt her ankle?",
        "What did Olu buy at a market in Osaka?",
    ]),
    C(("Dmitri", "Aisha"), [
        ("2024-07-04", [
            ("Aisha", "Dmitri, we're finally renovating the kitchen, new cabinets arrive Monday."),
            ("Dmitri", "Nice! What color did you pick?"),
            ("Aisha", "Sage green, my husband wanted white but I won."),
            ("Dmitri", "I volunteer at the food bank on Saturdays now."),
            ("Aisha", "That's lovely. How did you get into that?"),
            ("Dmitri", "My neighbor Greta runs it and asked for help after her hip surgery."),
            ("Aisha", "My son Idris just got into the robotics club at school."),
            ("Dmitri", "Have you ever done any volunteering?"),
            ("Aisha", "I used to tutor math at the library before the twins were born."),
        ]),
        ("2024-08-15", [
            ("Dmitri", "I'm learning to sail, we took the boat out on Lake Geneva yesterday."),
            ("Aisha", "Sounds dreamy. We're driving to the coast for the twins' birthday."),
            ("Dmitri", "How old are they turning?"),
            ("Aisha", "Five! They want a pirate party."),
            ("Dmitri", "I finished reading The Overstory, it changed how I see trees."),
            ("Aisha", "I need a new book, I just finished Circe."),
        ]),
        ("2024-09-21", [
            ("Dmitri", "Our sailboat capsized near the shore, I was soaked but fine."),
            ("Aisha", "Yikes, Dmitri! A capsized boat sounds terrifying, glad you're safe."),
            ("Aisha", "Idris built a robot that sorts Lego by color, it won first prize."),
            ("Dmitri", "Brilliant kid! Did you ever build robots yourself?"),
            ("Aisha", "Only a line-following car in university, it kept crashing."),
            ("Dmitri", "Greta is back at the food bank, her hip healed well."),
            ("Aisha", "So glad Greta recovered, hips take forever."),
        ]),
    ], answerable=[
        "What color are Aisha's new kitchen cabinets?",
        "Why does Dmitri volunteer at the food bank?",
        "What did Aisha do before the twins were born?",
        "What club did Aisha's son join?",
        "Where did Dmitri go sailing?",
        "How old are Aisha's twins turning?",
        "What book did Dmitri finish reading?",
        "What happened to Dmitri's sailboat?",
        "What did Idris's robot do?",
        "What robot did Aisha build in university?",
        "Who is back at the food bank?",
    ], unanswerable=[
        "What color are Dmitri's new kitchen cabinets?",
        "Why does Aisha volunteer at the food bank?",
        "What club did Dmitri's son join?",
        "Where did Aisha go sailing?",
        "How old are Dmitri's twins turning?",
        "What math did Dmitri tutor at the library?",
        "What happened to Aisha's sailboat?",
        "What robot did Dmitri build in university?",
    ]),
]
# fmt: on


#: Round 42's "both talked of it" set, one conversation a line with its split ("DEV" or "HELD"), written blind
#: by a helper before any rule read it and without reading the rules or this probe. In each conversation both
#: people talk of the same objects, places, events or hobbies in different roles (one hosted the quiz night,
#: the other's team played in it; one plans what the other already did). Answerable questions ask, by name,
#: what a person's own words answer, often with a verb that person did not use or nouns the other said too;
#: unanswerable ones ask the same of the other person, whose own words do not answer it (they asked about it,
#: reacted to it, only plan it, or did something different with it). The splits share no topics.
BOTH_TALKED_FILE = Path(__file__).with_name("attribution_cases2.jsonl")


def both_talked() -> dict[str, list[Conversation]]:
    """Round 42's set by split ("DEV", "HELD")."""
    out: dict[str, list[Conversation]] = {"DEV": [], "HELD": []}
    with BOTH_TALKED_FILE.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            sessions = [(day, [(who, text) for who, text in turns]) for day, turns in row["sessions"]]
            out[row["split"]].append(C(tuple(row["people"]), sessions, row["answerable"], row["unanswerable"]))
    return out
