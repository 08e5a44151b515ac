"""Values the write-path cases fill their templates with: subjects, invented brands and codes.

Many values are in no lexicon of the extractor on purpose (invented brand names, rare sports,
codes such as ZK-4410): a rule that only knows its word lists fails here, which is the point.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

_SYLLABLES = ("zor", "vik", "quel", "bra", "tan", "lum", "kes", "dro", "vel", "myr", "thal", "pex", "nor", "gri",
              "sol", "vant", "ruk", "ema", "jov", "cal", "tiv", "ond", "zeph", "orn")  # fmt: skip
_FIRST = ("Amara", "Tobias", "Ingrid", "Kofi", "Yusra", "Dmitri", "Leilani", "Oskar", "Priya", "Matteo", "Saoirse",
          "Hiroshi", "Beatriz", "Nnamdi", "Elif", "Rasmus")  # fmt: skip
_LAST = ("Okonkwo", "Lindqvist", "Ferreira", "Nakamura", "Vasquez", "Achterberg", "Ibrahimovic", "Thorsen",
         "Kowalczyk", "Mbeki", "Castellanos", "Haddad")  # fmt: skip
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip


@dataclass(frozen=True)
class Domain:
    """One attribute a user can state and change: how it is said and which values it takes.

    ``verb`` is the base verb the user says it with ("drive", "play"); ``have`` is how the user
    says they have it ("My car is a {v}"); values are (old, new) pairs drawn per case.
    """

    name: str
    noun: str
    verb: str
    have: str
    values: tuple[str, ...]
    question: str
    art: str = ""


# fmt: off
DOMAINS: tuple[Domain, ...] = (
    Domain("car", "car", "drive", "My car is a {v}.", (
        "Fiat Panda", "Volvo XC40", "Zorvik Tallon", "Kestrel K9", "Brannic Vee", "Skoda Octavia", "Lumora GT",
        "Quellet Mini", "Dacia Spring", "Thalvex 300"), "What car does the user drive?", "a "),
    Domain("sport", "sport", "play", "My sport is {v}.", (
        "korfball", "underwater hockey", "sepak takraw", "bossaball", "hurling", "kabaddi", "squash", "padel",
        "floorball", "tchoukball", "roller derby", "fistball"), "What sport does the user play?"),
    Domain("phone", "phone", "use", "My phone is a {v}.", (
        "Nuvrel X2", "Quellic Pro", "Pixel 8", "Fairphone 5", "Orvanta Neo", "Drellix S4", "Moto Edge",
        "Zephyra One"), "Which phone does the user use?", "a "),
    Domain("editor", "code editor", "use", "My code editor is {v}.", (
        "Vimtrek", "Emacs", "Helix", "Zedwin", "Sublime Text", "Kakoune", "Lapce", "Brackett"),
        "Which code editor does the user use?"),
    Domain("instrument", "instrument", "play", "My instrument is the {v}.", (
        "hurdy-gurdy", "oud", "cello", "theremin", "bandoneon", "nyckelharpa", "kalimba", "euphonium"),
        "Which instrument does the user play?", "the "),
    Domain("gym", "gym", "go to", "My gym is {v}.", (
        "IronNest Eastside", "Pulsewerk Mitte", "Gold's Gym Soho", "Kravtar Fitness", "Velocore Arena",
        "FlexHaus Nord"), "Which gym does the user go to?"),
    Domain("airline", "airline", "fly with", "My airline is {v}.", (
        "Lufthansa", "Aer Lingus", "Skyvora", "Norrjet", "Iberia", "Caldera Air", "Finnair", "Zephyrwing"),
        "Which airline does the user fly with?"),
    Domain("language", "language class", "learn", "My language class is {v}.", (
        "Basque", "Icelandic", "Tagalog", "Welsh", "Swahili", "Georgian", "Esperanto", "Quechua"),
        "Which language does the user learn?"),
)
# fmt: on

#: Things one "moves to" that are not places: (how it is first said, values). Never "lives in".
THINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("I'm on {v} at the depot.", ("the night shift", "the early shift", "the weekend shift", "the late shift")),
    ("Our backend runs on {v}.", ("Python 3.12", "Python 3.9", "Node 20", "Java 21", "Postgres 16", "Go 1.22")),
    ("At work I use {v}.", ("a standing desk", "a treadmill desk", "a kneeling chair", "a sit-stand desk")),
    ("My phone contract is {v}.", ("the family plan", "the annual plan", "the basic plan", "the premium tier")),
)
#: Places one moves to: a new residence ("lives in") whatever the phrasing.
PLACES: tuple[str, ...] = ("Lisbon", "Kraków", "Montevideo", "Tbilisi", "Halifax", "Ljubljana", "Da Nang", "Tromsø",
                           "the Netherlands", "Cape Town")  # fmt: skip

#: Facts that come with an identifier: (what it is, template of the clause stating it).
ID_FACTS: tuple[tuple[str, str], ...] = (
    ("member number", "my member number is {c}"),
    ("booking reference", "my booking reference is {c}"),
    ("policy number", "the policy number is {c}"),
    ("locker code", "my locker code is {c}"),
    ("frequent flyer number", "my frequent flyer number is {c}"),
    ("ticket number", "the ticket number is {c}"),
    ("licence plate", "my licence plate is {c}"),
    ("customer ID", "my customer ID is {c}"),
)
#: First clauses a compound sentence opens with before the identifier.
OPENERS: tuple[str, ...] = (
    "I renewed the gym membership yesterday",
    "I booked the Lisbon trip for June",
    "The insurance finally came through",
    "I picked up the new glasses",
    "I signed up for the pottery course",
    "I moved the dentist appointment",
    "My sister is visiting from Porto next week",
    "I registered the bike with the city",
)


class Gen:
    """Seeded value factory so that every run builds the same cases."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def code(self) -> str:
        letters = "".join(self.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(2))
        return f"{letters}-{self.rng.randint(1000, 9999)}"

    def brand(self) -> str:
        return "".join(self.rng.choice(_SYLLABLES) for _ in range(2)).capitalize()

    def person(self) -> str:
        return f"{self.rng.choice(_FIRST)} {self.rng.choice(_LAST)}"

    def date(self) -> str:
        return f"{self.rng.randint(1, 28)} {self.rng.choice(_MONTHS)} {self.rng.randint(2026, 2031)}"

    def number(self) -> str:
        return str(self.rng.randint(12, 9800))

    def pair(self, domain: Domain) -> tuple[str, str]:
        old, new = self.rng.sample(domain.values, 2)
        return old, new

    def pick(self, items: tuple[str, ...]) -> str:
        return self.rng.choice(items)
