"""Endings, reversals and corrections told a month later.

Faults seen in round 22's probes of users' lives (9 and 10): "we broke up last week" left "User and User's
boyfriend Tom have been together 3 years" current; "paid the car loan off early!" left the loan; "finger's
healed, back on the wall" left the torn pulley; "I'm back eating meat tbh" left "User is vegetarian";
"started running and I actually love it now" left "User hates running"; "Lisbon's cancelled, Kez broke his
ankle" left the trip booked; "actually it's July not June" replaced the plan to move in with Priya by the
correction's own words, so the plan was lost. Two rules went too far the other way: "just finished year 2 of
the degree" closed the degree, and "doing a side hustle selling vintage trainers" closed the user's job (as
if "selling" sold it).

Six families: part_done (a part of a course finished), trade (selling as a trade), off_short ("X's
cancelled"), endings, reversal and correction. Cases are as in :mod:`evaluation.life_changes`. DEV was
written by the developer before any rule; HELD-OUT was written by a helper session that read neither the
rules nor DEV, and its failures are never read. DEV's second batch (30 cases) was written after the first
rules, to widen them in more of users' words; its third (48) by another helper session that read neither the
rules nor the other cases, and its fourth (40, `evaluation/life_endings_dev4.py`) by a third such session.
Run ``python -m evaluation.life_endings``.
"""

from __future__ import annotations

from evaluation.life_changes import Case, measure
from evaluation.life_endings_dev import DEV as EARLIER
from evaluation.life_endings_dev4 import FOURTH
from evaluation.restated import report_splits

DEV = EARLIER + FOURTH
HELD: tuple[Case, ...] = (
    # family: part_done
    ("I'm doing a master's in data science at Edinburgh.", "Just finished my first semester, exams went ok I think",
     ("edinburgh", "semester"), ()),
    ("studying nursing at uni, second year now", "finished my placement on the cardiac ward today!! so tired lol",
     ("nursing", "cardiac"), ()),
    ("I'm doing an Open University degree in history, part time.",
     "Module done! Submitted the final essay for A223 last night.", ("history", "a223"), ()),
    ("Training to be an accountant at the moment, doing my ACCA.",
     "passed my first ACCA exam - Business and Technology, 78%", ("accountant", "78"), ()),
    ("I'm in my first year of a law degree at Manchester.", "Year one's done!! summer off then back in September",
     ("law", "september"), ()),
    ("I'm doing a PGCE at the moment, primary.", "Finished my PGCE!! officially a qualified teacher",
     ("qualified teacher",), ("doing a pgce",)),
    ("I'm studying graphic design at night school.", "graduated from night school today, diploma in hand :)",
     ("graduated",), ("studying graphic design",)),
    # family: trade
    ("I work as a dental nurse in Cardiff.", "Started selling my candles on Etsy on the side, 12 orders already!",
     ("dental nurse", "candles"), ()),
    ("I'm a software developer at a bank.", "selling cakes at the Saturday market now, side hustle lol",
     ("software developer", "cakes"), ()),
    ("Been teaching Year 5 for six years.", "My wife and I have started selling vintage clothes on Depop.",
     ("year 5", "vintage"), ()),
    ("I play bass in a band called The Wrens.", "been selling my own prints at craft fairs, tbh it's going well",
     ("wrens", "prints"), ()),
    ("I ride my Vespa to work every day.", "Sold my Vespa last weekend, getting the bus now.", ("bus",),
     ("vespa to work",)),
    ("I play the piano most evenings, it's an old Yamaha upright.", "Selling my piano, no room in the new flat :(",
     ("piano",), ("most evenings",)),
    ("Gaming on my PS5 most nights tbh", "sold my ps5 lol, too much of a time sink", ("ps5",), ("most nights",)),
    ("I've got an old Gibson Les Paul that I play every weekend.", "Sold the Les Paul to pay for the holiday.",
     ("les paul",), ("every weekend",)),
    # family: off_short
    ("Booked Lisbon for 14-18 May with my mate Jonno!", "Lisbon's cancelled, Jonno's broken his leg", ("cancel",),
     ("14",)),
    ("My leaving do is Friday at the Red Lion.",
     "Leaving do's called off, they offered me an extension so I'm staying!",
     ("extension",), ("red lion",)),
    ("Got tickets to see Arctic Monkeys at Wembley on the 21st",
     "the gig's called off, Alex has lost his voice apparently",
     ("arctic monkeys",), ("21st",)),
    ("Having a barbecue for my 40th on Sunday.", "BBQ is cancelled. forecast is biblical lol", ("cancel",),
     ("sunday",)),
    ("My knee op is booked for the 12th of March.", "Op's cancelled - surgeon's off sick, so waiting on a new date.",
     ("cancel",), ("12th",)),
    ("My brother lives in Prague with his wife.", "Prague's cancelled, work needs me here that week",
     ("brother", "cancel"), ()),
    ("My daughter's called Paris, she's 4.", "Paris is cancelled, the strikes again", ("daughter", "strike"), ()),
    ("My sister Priya is getting married in Goa in December.", "My cousin's wedding is cancelled, they broke up",
     ("priya", "cousin"), ()),
    ("I'm running the Manchester marathon in April.", "Ella's hen do is called off, her fiance got covid",
     ("marathon", "hen"), ()),
    # family: endings
    ("me and my boyfriend Kofi have been together almost 3 years now", "Kofi and I broke up. I'm ok, mostly.",
     ("kofi",), ("been together",)),
    ("Still paying off my car loan, £180 a month.", "Made the last car payment today!! the Corsa is all mine",
     ("corsa",), ("180",)),
    ("I've got tendonitis in my right wrist, can't lift much at the gym.",
     "wrist is fully healed, physio signed me off", ("wrist",), ("tendonitis",)),
    ("I'm studying psychology at Derby, second year.", "I've dropped out of uni. Working at my uncle's cafe for now.",
     ("uncle",), ("studying psychology",)),
    ("I work nights in the Argos warehouse.", "Got made redundant yesterday. 9 years!!", ("redundant",),
     ("works nights",)),
    ("I'm a receptionist at Kingsway Dental.", "quit kingsway today. walked out at lunch lol", ("quit",),
     ("is a receptionist",)),
    ("I'm a project manager at Deliveroo.", "Deliveroo laid me off last week along with half the team.",
     ("deliveroo",), ("is a project manager",)),
    ("We've still got 40k left on the mortgage.", "paid off the mortgage!!! the house is ours", ("mortgage",),
     ("40k",)),
    ("My partner Leon and I are moving in together in June.",
     "my best mate Sophie and her boyfriend split up, she's staying with us for a bit", ("leon", "sophie"), ()),
    ("Still paying off my student loan.", "Finally paid off the sofa we got on finance.", ("student loan", "sofa"), ()),
    ("I'm off work with a broken ankle, 6 weeks in a boot.", "My dog's leg has healed nicely after the op",
     ("ankle", "dog"), ()),
    ("I'm a chef at Dishoom.", "I quit sugar for January, day 12 lol", ("chef", "sugar"), ()),
    ("Doing my PhD in marine biology.", "My flatmate dropped out of her course.", ("phd", "flatmate"), ()),
    # family: reversal
    ("I hate running, always have.", "started doing parkrun and honestly I love it now", ("parkrun",),
     ("hates running",)),
    ("I'm vegan.", "back on meat and dairy tbh, couldn't keep it up", ("meat",), ("user is vegan",)),
    ("Getting into bouldering, going twice a week.", "not really into bouldering anymore, my fingers can't take it",
     ("bouldering",), ("twice a week",)),
    ("I don't drink coffee.", "I'm a coffee person now, two flat whites a day lol", ("flat white",),
     ("doesn't drink coffee",)),
    ("Not a cat person at all", "we adopted a kitten and I'm obsessed. total cat person now", ("kitten",),
     ("not a cat person",)),
    ("I hate running, always have.", "I've come round to olives, love them now", ("hates running", "olives"), ()),
    ("I'm vegetarian.", "My dad went back to eating meat after 10 years veggie lol", ("user is vegetarian", "dad"), ()),
    ("I'm not a morning person.", "my husband's turned into a gym bro, up at 5 every day",
     ("not a morning person", "husband"), ()),
    ("I don't drink alcohol.", "I've started drinking oat milk, can't believe I used to hate it",
     ("alcohol", "oat milk"), ()),
    # family: correction
    ("Me and Dan are moving in together in June.", "actually it's July not June, sorry", ("dan", "july"), ("june",)),
    ("My sister's wedding is on Friday the 14th.", "sorry, got that wrong - the wedding's Saturday the 15th",
     ("wedding", "saturday"), ("friday", "14th")),
    ("My interview is at the Stockport office on Tuesday.", "oops, it's the Stockton office, not Stockport",
     ("interview", "stockton"), ("stockport",)),
    ("My rent's going up to £950 in September.", "correction: it's £985 not £950", ("rent", "985"), ("950",)),
    ("Mum's 60th is on the 22nd.", "wait no, mum's birthday is the 23rd, I always get it wrong", ("60th", "23rd"),
     ("22nd",)),
    ("Our flight to Athens leaves at 6:40am.", "it's 7:40 actually, misread the ticket", ("athens", "7:40"), ("6:40",)),
    ("I've got my driving test on 4 March.", "correction from earlier - my nephew's name is Finlay not Finley",
     ("driving test", "finlay"), ()),
    ("Started a new job at Ocado in April.", "my gran lives in Hove btw, not Brighton like I said",
     ("ocado", "hove"), ()),
    ("We're going to Crete on the 12th of July.", "actually the party is Saturday not Friday",
     ("crete", "july", "saturday"), ()),
    ("My son Idris starts nursery in September.", "correction: my car's a 2018, not a 2016", ("idris", "2018"), ()),
)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    report_splits(__doc__, measure, (DEV, HELD), ("what ended told right", "nothing ended, both kept"), argv)


if __name__ == "__main__":
    main()
