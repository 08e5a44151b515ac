"""The wording families of round 27: what a message says that is not the user's to remember.

Probe 13 stored a dream ("User was a famous jazz saxophonist"), a part to play ("User is Captain Reyes"),
a story's detective, "someone" in a sum the user supposed, and a record pasted for homework as the
user's facts. Each family also holds cases that must still be kept ("I've always dreamed of opening a
bakery", a real interview before a role-play). Same record as :mod:`evaluation.wording`; all cases were
written before the rules, DEV used while writing them, HELD-OUT only measured.
"""

from __future__ import annotations

from evaluation.wording_family import Family

UNTRUE_FAMILIES: tuple[Family, ...] = (
    Family("chat: a dream is not what happened", "dev", chat=(
        ("had the weirdest dream that my cat could talk and was running for mayor lol", (), ("mayor",)),
        ("I dreamt I was back in high school taking a chemistry exam I hadn't studied for", (), ("chemistry",)),
        ("I've always dreamed of opening a bakery", ("bakery",), ()),
    )),
    Family("chat: a dream is not what happened (held out)", "heldout", chat=(
        ("last night i dreamed that i won the lottery and bought an island", (), ("island", "lottery")),
        ("Weird dream: I was a pilot flying over the Alps. what does it mean?", (), ("pilot",)),
        ("In my dream I had a twin brother called Theo", (), ("Theo",)),
        ("My dream is to sail around the world someday", ("sail around the world",), ()),
    )),
    Family("chat: a part to play is not the user", "dev", chat=(
        ("roleplay time! you are a dungeon master and I'm Elara, an elf ranger with a pet wolf named Ash",
         (), ("Elara", "elf", "wolf")),
        ("Let's play a game: I'm a customer named Bob who wants a refund for a broken toaster, you're the clerk",
         (), ("Bob", "toaster")),
        ("I have an interview at Siemens next week, can you role-play the interviewer?", ("Siemens",), ()),
    )),
    Family("chat: a part to play is not the user (held out)", "heldout", chat=(
        ("Can we role play? I'll be a nervous patient called Mrs. Jenkins who is scared of needles, you're the nurse",
         (), ("Jenkins", "needles")),
        ("Let's play a game where I'm a detective called Sam Spade looking for a missing cat", (), ("Spade",)),
        ("role-play: you're my landlord and I'm a tenant whose rent is three months late", (), ("three months",)),
        ("my exam at the driving school is on friday, could you roleplay the examiner?", ("driving",), ()),
    )),
    Family("chat: a story's people are not the user's", "dev", chat=(
        ("working on a fantasy novel about a blacksmith named Oren who lost his arm in the war",
         ("fantasy novel",), ("Oren", "arm")),
        ("my short story's main character is a lonely lighthouse keeper called Mags who collects seashells",
         (), ("Mags", "seashells")),
        ("I'm writing a mystery where the victim, Lord Ashby, was poisoned at his own wedding",
         ("mystery",), ("Ashby", "poisoned")),
    )),
    Family("chat: a story's people are not the user's (held out)", "heldout", chat=(
        ("I'm writing a screenplay in which the heroine, Dr. Lena Ortiz, is a marine biologist with a fear of boats",
         ("screenplay",), ("Ortiz", "boats")),
        ("help me with my novel: the protagonist Jasper is a retired boxer who runs a bakery in Glasgow",
         (), ("Jasper", "boxer", "Glasgow")),
        ("writing a kids book about a hedgehog called Spike who is scared of the dark", (), ("Spike", "dark")),
    )),
    Family("chat: someone supposed or pasted material is not the user's", "dev", chat=(
        ("Suppose someone has 3 kids and earns 40k, how much tax would they pay?", (), ("40k", "kids")),
        ("Imagine a person who is allergic to gluten and lactose, what could they have for breakfast?",
         (), ("gluten",)),
        ("translate to spanish please: 'The patient, a 45-year-old male, reports chest pain since Tuesday.'",
         (), ("chest", "patient")),
        ("Here is an example row from my dataset: id=7, customer='Tom Baker', country='Wales'. how do I parse it?",
         (), ("Baker", "Wales")),
    )),
    Family("chat: someone supposed or pasted material is not the user's (held out)", "heldout", chat=(
        ("Let's say a guy owes 5k to the IRS and ignores the letters, what happens?", (), ("IRS",)),
        ("say somebody is 65 and has no pension, what are their options", (), ("pension",)),
        ("What's the tone of this review? \"The hotel staff in Lisbon were rude and the room smelled of smoke.\"",
         (), ("Lisbon", "smoke")),
        ("tl;dr this: 'Martha founded her company in 1976 and built a media empire over four decades.'",
         (), ("Martha", "1976")),
        ("Here's a test user for the signup form: bob.smith@example.com, born 1990, lives in Denver. write the JSON",
         (), ("Denver", "1990")),
    )),
)  # fmt: skip
