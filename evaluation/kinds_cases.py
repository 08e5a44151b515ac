"""Two-person conversations for the list-question probe (round 31), written for it after the kinds rule
(:mod:`tasks.recall.kinds`) was built on LoCoMo-dev and before the rule ever read them.

Each person names the members of a kind in passing ("we landed in Porto", "my cello teacher"), rarely
with the kind's own word, among chat about other things; a list question asks for them ("Which cities
has Lena visited?") and is scored by how many of the expected members the top 10 names. The fillers
(:func:`fillers`, some of them about travel, music, sport, food and learning without naming a member)
make each person's store some 40 memories, so the ten places are contested. The fillers were enlarged
once, before any rule change, when the first run showed both splits saturated without the rule (DEV
18/19, HELD-OUT 24/24 members on the default path).
DEV may be printed case by case; HELD-OUT is only counted. HELD-OUT's questions are worded freely
("Which languages can…", "Name the…"): wordings the rule does not read count against it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Conversation:
    people: tuple[str, str]
    #: Sessions as (ISO date, [(speaker, text), ...]).
    sessions: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    #: (question, the members its answer lists)
    questions: tuple[tuple[str, tuple[str, ...]], ...]


_CHAT = (
    "Work has been so busy lately, I barely had time to breathe.",
    "I'm trying to drink more water and sleep earlier.",
    "The weather has been gloomy all week but I'm staying positive.",
    "My manager gave me great feedback on the quarterly report.",
    "I cleaned out the garage on Saturday, it took forever.",
    "Thanks for always listening, it really means a lot to me.",
    "Been feeling a bit tired, probably need a proper vacation.",
    "I'm so proud of how far I've come this year.",
    "I started journaling every evening before bed.",
    "The team dinner was fun, we laughed the whole night.",
    # Topic-adjacent chat that names no member of any kind (as LoCoMo's "Jon loves performing"):
    "I love exploring new places, every trip teaches me something.",
    "Packing is the worst part of any trip, I always forget something.",
    "I visited my parents last weekend, they say hi.",
    "I want to travel more before I turn forty.",
    "Music is how I unwind after a long day.",
    "Practice has been slow lately but I'm improving.",
    "I went to a concert downtown, the crowd was amazing.",
    "I've been trying to stay active this month.",
    "My team has a game coming up on Saturday.",
    "I played really badly today, so frustrating.",
    "Stretching after workouts has helped my back a lot.",
    "I made dinner for friends and everyone loved it.",
    "Baking is my favourite way to relax on a Sunday.",
    "I tried a new recipe and it was a total disaster.",
    "We went for a long walk by the lake after lunch.",
    "I saw something amazing in the park today.",
    "Gardening keeps me calm when everything else is hectic.",
    "Learning something new every week keeps me sharp.",
    "I signed up for an evening class at the library.",
    "My teacher says I'm making real progress.",
    "I've been spending more time outdoors since spring.",
    "I bought a new pair of shoes for the trip.",
)


def fillers(person: str, seed: int, n: int = 12) -> list[tuple[str, str]]:
    """``n`` turns of everyday chat by ``person``, chosen by ``seed`` (deterministic)."""
    return [(person, t) for t in random.Random(f"{person}-{seed}").sample(_CHAT, n)]


def C(people: tuple[str, str], sessions: list[tuple[str, list[tuple[str, str]]]],
      questions: list[tuple[str, tuple[str, ...]]]) -> Conversation:  # fmt: skip
    a, b = people
    padded = [(d, [*fillers(a, 2 * i), *t, *fillers(b, 2 * i + 1)]) for i, (d, t) in enumerate(sessions)]
    return Conversation(people, tuple((d, tuple(t)) for d, t in padded), tuple(questions))


# fmt: off
DEV: list[Conversation] = [
    C(("Lena", "Omar"), [
        ("2024-02-03", [
            ("Lena", "We just got back from a long weekend in Porto, the tiles everywhere were gorgeous."),
            ("Omar", "Jealous! I've been stuck at home fixing my bike."),
            ("Lena", "My cello teacher says I'm ready for the spring recital."),
            ("Omar", "I joined a Sunday volleyball league with some coworkers."),
        ]),
        ("2024-03-09", [
            ("Lena", "Work sent me to Osaka for a week, the food was unreal."),
            ("Omar", "I've been practising guitar chords every night."),
            ("Lena", "I picked up the ukulele too, it's so easy to carry around."),
            ("Omar", "Played squash with my brother, he crushed me."),
        ]),
        ("2024-04-20", [
            ("Lena", "Spent a rainy afternoon in Edinburgh visiting the castle."),
            ("Omar", "My team lost the badminton final but it was close."),
            ("Omar", "We drove through Belgium on the way back from the wedding."),
            ("Lena", "I want to see more of the world this year."),
        ]),
    ], [
        ("Which cities has Lena visited?", ("Porto", "Osaka", "Edinburgh")),
        ("What instruments does Lena play?", ("cello", "ukulele")),
        ("What sports does Omar play?", ("volleyball", "squash", "badminton")),
        ("What instruments does Omar play?", ("guitar",)),
    ]),
    C(("Rosa", "Ken"), [
        ("2024-06-01", [
            ("Rosa", "I baked a cheesecake for my aunt's birthday and it cracked, still tasted fine."),
            ("Ken", "I've been birdwatching at the lake, saw a heron this morning."),
            ("Rosa", "We spent two weeks in Portugal last summer, mostly on the beach."),
            ("Ken", "My daughter started karate classes on Tuesdays."),
        ]),
        ("2024-07-13", [
            ("Rosa", "Trying my hand at tiramisu this weekend for the party."),
            ("Ken", "A woodpecker has been drumming on our fence all week."),
            ("Rosa", "Next month I'm off to Greece with my cousins."),
            ("Ken", "I'm doing judo again after ten years off."),
        ]),
        ("2024-08-24", [
            ("Rosa", "Made brownies with the kids, the kitchen is a disaster."),
            ("Ken", "Spotted an owl in the park at dusk, it was huge."),
            ("Rosa", "I loved the old towns of Croatia when I went in May."),
            ("Ken", "Thinking of trying aikido, a friend swears by it."),
        ]),
    ], [
        ("What desserts has Rosa made?", ("cheesecake", "tiramisu", "brownie")),
        ("Which countries has Rosa travelled to?", ("Portugal", "Greece", "Croatia")),
        ("What birds has Ken seen?", ("heron", "woodpecker", "owl")),
        ("What martial arts has Ken done?", ("judo",)),
    ]),
]

HELD: list[Conversation] = [
    C(("Maya", "Theo"), [
        ("2024-01-14", [
            ("Maya", "I'm taking evening classes in Italian, my grandmother would be thrilled."),
            ("Theo", "I bought a used canoe, can't wait for summer on the river."),
            ("Maya", "We grew so many zucchini this year, I'm giving them away."),
            ("Theo", "Signed up for salsa lessons with my partner, we keep stepping on each other."),
        ]),
        ("2024-02-25", [
            ("Maya", "My Japanese is still shaky but I can order food now."),
            ("Theo", "Finally got the motorcycle running after months in the garage."),
            ("Maya", "The kale in the garden survived the frost somehow."),
            ("Theo", "We tried a tango workshop on Saturday, much harder than salsa."),
        ]),
        ("2024-04-06", [
            ("Maya", "Switched to practising Swahili on the train to work."),
            ("Theo", "Took the kids out in a rowboat at the lake."),
            ("Maya", "Planted beets and carrots along the fence."),
            ("Theo", "My mom taught me a waltz for my cousin's wedding."),
        ]),
    ], [
        ("Which languages can Maya speak?", ("Italian", "Japanese", "Swahili")),
        ("What vegetables has Maya grown?", ("zucchini", "kale", "beet", "carrot")),
        ("What dances has Theo learned?", ("salsa", "tango", "waltz")),
        ("Name the vehicles Theo has used.", ("canoe", "motorcycle", "rowboat")),
    ]),
    C(("Ines", "Sam"), [
        ("2024-09-07", [
            ("Ines", "Our weekend in Vienna was mostly coffee and museums."),
            ("Sam", "I planted tulips along the driveway, hoping they come up in spring."),
            ("Ines", "I've started learning the flute, my neighbours are patient."),
            ("Sam", "Played chess with my grandfather, he still beats me."),
        ]),
        ("2024-10-19", [
            ("Ines", "Flew to Montreal for my friend's wedding, it was freezing."),
            ("Sam", "The roses my wife planted are still blooming in October."),
            ("Ines", "Dusted off my old violin from high school."),
            ("Sam", "We played backgammon all evening at the cabin."),
        ]),
        ("2024-11-30", [
            ("Ines", "A quick work trip to Nairobi, I'd love to go back for longer."),
            ("Sam", "Bought a pot of orchids for the office window."),
            ("Sam", "Got my nephew into checkers over the holidays."),
            ("Ines", "I'm hoping to perform at the community concert next year."),
        ]),
    ], [
        ("What cities did Ines go to?", ("Vienna", "Montreal", "Nairobi")),
        ("What instruments has Ines played?", ("flute", "violin")),
        ("Which flowers has Sam grown?", ("tulip", "rose", "orchid")),
        ("What board games does Sam play?", ("chess", "backgammon", "checkers")),
    ]),
]
#: Written after HELD-OUT's first run showed three of its wordings unread ("Which languages can…",
#: "Name the…"), before the rule was changed for them: the split that still measures what it never saw.
HELD_2: list[Conversation] = [
    C(("Nadia", "Luis"), [
        ("2025-03-08", [
            ("Nadia", "I spent the morning repotting my fern and the basil on the balcony."),
            ("Luis", "We took the ferry over to the island, the kids loved it."),
            ("Nadia", "Dinner was a big pot of lentil soup, perfect for the cold."),
            ("Luis", "I've been learning to play the harmonica on my lunch breaks."),
        ]),
        ("2025-04-19", [
            ("Nadia", "My cactus finally flowered after three years!"),
            ("Luis", "Rode a tram all the way to the end of the line just for fun."),
            ("Nadia", "I made risotto for my in-laws and they asked for seconds."),
            ("Luis", "My accordion lessons start next week, wish me luck."),
        ]),
        ("2025-06-07", [
            ("Nadia", "Bought a little bonsai at the market on Saturday."),
            ("Luis", "We rented a camper van for the long weekend."),
            ("Nadia", "Tried making paella for the first time, the rice stuck a bit."),
            ("Luis", "Dug out my old trumpet from the attic."),
        ]),
    ], [
        ("Could you list the plants Nadia keeps?", ("fern", "basil", "cactus", "bonsai")),
        ("Which dishes would Nadia cook for guests?", ("soup", "risotto", "paella")),
        ("Tell me which vehicles Luis has been on.", ("ferry", "tram", "camper")),
        ("Which instruments is Luis learning?", ("harmonica", "accordion", "trumpet")),
    ]),
    C(("Farah", "Jonas"), [
        ("2025-09-13", [
            ("Farah", "I adopted a hamster for my son, he named it Biscuit."),
            ("Jonas", "Hiked up to the glacier on Sunday, my legs are still sore."),
            ("Farah", "I've been knitting a scarf for the winter market."),
            ("Jonas", "We stopped in Antwerp on the way to my sister's."),
        ]),
        ("2025-10-25", [
            ("Farah", "Our neighbours gave us a parrot they couldn't keep anymore."),
            ("Jonas", "Walked along a fjord during the work retreat, stunning views."),
            ("Farah", "Started quilting with my aunt on Thursday nights."),
            ("Jonas", "Had a long layover in Dubai and explored the old souk."),
        ]),
        ("2025-12-06", [
            ("Farah", "The kids begged for a rabbit and I finally said yes."),
            ("Jonas", "We camped next to a waterfall, the sound put me to sleep."),
            ("Farah", "Picked up embroidery again, it calms me down."),
            ("Jonas", "I want to see Marrakesh next spring."),
        ]),
    ], [
        ("What animals does Farah keep at home?", ("hamster", "parrot", "rabbit")),
        ("Which crafts has Farah taken up?", ("knitting", "quilting", "embroidery")),
        ("Which cities has Jonas been to?", ("Antwerp", "Dubai")),
        ("What natural features has Jonas seen on his trips?", ("glacier", "fjord", "waterfall")),
    ]),
]
# fmt: on
