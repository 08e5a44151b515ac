"""The wording families from rounds 20 and 21's probes of users' lives over months (a courtesy, "no X
please", "it's all X now", "-ing" openers, a circumstance with "while"), kept apart from
:mod:`evaluation.wording_probe` so that each module stays short; :mod:`evaluation.wording` appends them
last. Same record as there; DEV cases were used while writing the rules, HELD-OUT cases only measured."""

from __future__ import annotations

from evaluation.wording_family import Family

LIVES_FAMILIES: tuple[Family, ...] = (
    # -- round 20, fourth probe: "No eggs please, I can't stand them" became "User has no eggs please".
    Family("chat: 'no X please' is what the user does not want", "dev", chat=(
        ("No eggs please, I can't stand them.", ("eggs",), ("has no eggs",)),
        ("No onions, please, they make me ill.", ("onions",), ("has no onions",)),
        ("Breakfast ideas? No dairy please, my stomach can't take it.", ("dairy",), ("has no dairy",)),
    )),
    Family("chat: 'no X please' is what the user does not want (held out)", "heldout", chat=(
        ("No spoilers please, I haven't finished the series.", ("spoilers",), ("has no spoilers",)),
        ("No mushrooms, please, I hate the texture.", ("mushrooms",), ("has no mushrooms",)),
        ("No emojis please, it looks unprofessional.", ("emojis",), ("has no emojis",)),
    )),
    # -- round 21: "No rush please" was stored as "User has no rush please" (a courtesy to the agent).
    Family("chat: 'no rush' is a courtesy, not something the user has", "dev", chat=(
        ("No rush please.", (), ("rush",)),
        ("No rush, whenever you can.", (), ("rush",)),
        ("No hurry, take your time.", (), ("hurry",)),
        ("No time for breakfast these days.", ("no time for breakfast",), ()),
    )),
    Family("chat: 'no rush' is a courtesy, not something the user has (held out)", "heldout", chat=(
        ("No pressure, just curious.", (), ("pressure",)),
        ("No sweat, thanks!", (), ("sweat",)),
        ("No need to hurry, next week is fine.", (), ("hurry",)),
        ("No car at the moment, I sold it.", ("no car",), ()),
    )),
    # "Dev doesn't like trains anymore, it's all dinosaurs now" became "User is into dinosaurs now".
    Family("chat: 'it's all X now' is of whoever the sentence is about", "dev", chat=(
        ("My son doesn't like trains anymore, it's all dinosaurs now.", ("dinosaurs",), ("User is into",)),
        ("My daughter Maya used to love Frozen, it's all Bluey these days.", ("Bluey",), ("User is into",)),
        ("I don't listen to rock anymore, it's all jazz now.", ("User is into jazz",), ()),
    )),
    Family("chat: 'it's all X now' is of whoever the sentence is about (held out)", "heldout", chat=(
        ("My husband stopped watching football, it's all cricket now.", ("cricket",), ("User is into",)),
        ("My sister's not into yoga anymore, it's all climbing these days.", ("climbing",), ("User is into",)),
        ("I've stopped reading thrillers, it's all sci-fi now.", ("User is into sci-fi",), ()),
    )),
    # Probe 6: "Taking a couple of weeks off running now" was read as a gerund with a verb of its own
    # ("weeks off" like "pays off") and dropped.
    Family("chat: an -ing opener with a plural noun before 'off'", "dev", chat=(
        ("Taking a couple of weeks off running now.", ("User is taking a couple of weeks off",), ()),
        ("Having a few days off work next week.", ("User is having a few days off",), ()),
        ("Enjoying my days off at the beach.", ("User is enjoying",), ()),
    )),
    Family("chat: an -ing opener with a plural noun before 'off' (held out)", "heldout", chat=(
        ("Taking two weeks off work in August.", ("User is taking two weeks off",), ()),
        ("Spending my evenings off at the climbing gym.", ("User is spending",), ()),
        ("Planning a few days off around Easter.", ("User is planning a few days off",), ()),
    )),
    # Probe 5/6: a circumstance said with "while the/our ..." was cut off and dropped ("Taking a break from
    # swimming while the pool is closed" kept no reason; "while our flat is renovated" became "is renovated").
    Family("chat: a circumstance with 'while' stays with its statement", "dev", chat=(
        ("Taking a break from swimming while the pool is closed for repairs.", ("while the pool is closed",), ()),
        ("I'm staying with my parents while our flat is renovated.", ("staying with", "flat is renovated"), (" | ",)),
        ("I work from home while the office is being refurbished.", ("while the office is being refurbished",), ()),
    )),
    Family("chat: a circumstance with 'while' stays with its statement (held out)", "heldout", chat=(
        ("I'm cycling to work while the trains are on strike.", ("trains are on strike",), ()),
        ("We're eating out a lot while the kitchen is being redone.", ("kitchen is being redone",), ()),
        ("I'm reading a lot while the kids are at camp.", ("kids are at camp",), ()),
    )),
)  # fmt: skip
