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
rules, to widen them in more of users' words. Run ``python -m evaluation.life_endings``.
"""

from __future__ import annotations

from evaluation.life_changes import Case, measure
from evaluation.restated import report_splits

DEV: tuple[Case, ...] = (
    # part_done: a part of a course finished leaves the course going on; the whole of it ends it.
    ("I'm doing a part-time degree in history with the OU.", "Just finished year 1 of the degree, phew!",
     ("degree in history", "year 1"), ()),
    ("I'm studying for an MBA at Warwick.", "Finished my first term of the MBA, got a merit.", ("mba at warwick",
     "first term"), ()),
    ("I'm doing a coding bootcamp, 12 weeks.", "Done with module 3 of the bootcamp today.", ("coding bootcamp",
     "module 3"), ()),
    ("I'm doing a nursing degree at Keele.", "I've finished my second placement of the degree.",
     ("nursing degree", "placement"), ()),
    ("I'm doing a diploma in garden design.", "Finished the diploma, so proud!", ("finished",),
     ("doing a diploma",)),
    # trade: selling as a trade keeps the rest; selling what one owns ends owning it.
    ("I'm a bus driver in Leeds.", "Doing a side hustle selling handmade candles on Etsy.", ("bus driver",
     "candles"), ()),
    ("I work as a receptionist at a dental practice.", "I've started selling cupcakes at the Saturday market.",
     ("receptionist", "cupcakes"), ()),
    ("I teach maths at a secondary school.", "Selling prints of my paintings online now, it's going well.",
     ("maths", "prints"), ()),
    ("I drive a 2012 Honda Jazz.", "Sold the Jazz last week, I cycle everywhere now.", ("cycle",),
     ("drive a 2012",)),
    # off_short: "X's cancelled / called off", even with a reason after it.
    ("Booked a weekend in Bruges for the 3rd of May with my sister.", "Bruges is cancelled, my sister has covid.",
     ("cancelled",), ("booked a weekend",)),
    ("We're having a barbecue on Saturday for Tom's birthday.", "Barbecue's called off, rain all weekend.",
     ("called off",), ("having a barbecue",)),
    ("Got tickets to see Coldplay in Cardiff in June!", "Cardiff's cancelled, they postponed the whole tour.",
     ("cancelled",), ("got tickets",)),
    ("My cousin lives in Bruges.", "Bruges is cancelled, work won't let me go.", ("cousin lives in bruges",), ()),
    # endings: a break-up, a debt paid off, an injury healed, a course dropped, a job lost.
    ("My girlfriend Ana and I have been together 2 years.", "Ana and I split up at the weekend.", ("split up",),
     ("together 2 years",)),
    ("I'm seeing a guy called Marco, it's going really well.", "we broke up. his choice not mine",
     ("broke up",), ("going really well",)),
    ("I have a student loan of £14,000.", "Finally paid off my student loan!", ("paid off",),
     ("loan of £14,000",)),
    ("I sprained my ankle playing netball, on crutches for now.", "ankle's healed, back to netball on Thursday",
     ("healed",), ("on crutches",)),
    ("I'm doing an access course in science at the college.", "I dropped out of the access course, too much "
     "with the kids.", ("dropped out",), ("doing an access course",)),
    ("I work at Tesco as a shift manager.", "Got made redundant on Friday, after 9 years.", ("redundant",),
     ("work at tesco",)),
    ("I work as a chef at The Anchor.", "I've handed in my notice at The Anchor, last day on the 30th.",
     ("notice",), ("work as a chef",)),
    ("My girlfriend Ana and I have been together 2 years.", "My brother and his wife split up.", ("together 2 "
     "years", "split up"), ()),
    ("I have a student loan of £14,000.", "Paid off the sofa, finally.", ("student loan", "sofa"), ()),
    ("I work at Tesco as a shift manager.", "My mate got laid off from the warehouse.", ("tesco", "laid off"), ()),
    # reversal: a stance or habit turned round.
    ("I'm vegetarian.", "I'm back eating meat, being veggie didn't work for me.", ("eating meat",),
     ("user is vegetarian",)),
    ("I hate swimming, always have.", "I've started swimming and honestly I love it now.", ("started swimming",),
     ("hates swimming",)),
    ("I'm getting into yoga.", "Not into yoga anymore, it bored me.", ("not into yoga",),
     ("getting into yoga",)),
    ("I hate swimming, always have.", "My son has started swimming lessons.", ("hates swimming", "lessons"), ()),
    ("I'm vegetarian.", "My husband is back eating meat.", ("vegetarian", "eating meat"), ()),
    # correction: a later correction of a value rewrites the fact it corrects.
    ("My sister and I are going to Rome in September!", "actually it's October not September, flights were "
     "cheaper", ("rome", "october"), ("september",)),
    ("I have pottery class on Tuesdays.", "Correction: pottery is on Wednesdays, not Tuesdays.",
     ("pottery", "wednesday"), ("tuesday",)),
    ("My dentist appointment is on the 9th.", "sorry I meant the 19th not the 9th", ("dentist", "19th"),
     ("the 9th",)),
    ("My dentist appointment is on the 9th.", "Actually my nephew's name is Rory, not Roary.", ("dentist", "9th"),
     ()),
    # A second batch, written after the first rules (HELD-OUT's failures unread), in more of users' words.
    ("My boyfriend Jake and I have been dating for 8 months.", "Jake and I broke up on Sunday.", ("broke up",),
     ("dating for 8 months",)),
    ("My wife Sara and I have been married for 10 years.", "Sara and I are getting divorced.", ("divorced",),
     ("married for 10 years",)),
    ("I've got a girlfriend, Lou, we met at uni.", "Lou dumped me last night", ("dumped",), ("girlfriend, lou",)),
    ("My partner Alex and I live together in Bristol.", "Alex and I have separated, I'm staying in the flat.",
     ("separated",), ("live together",)),
    ("I've been with my boyfriend Joe for 3 years.", "My sister and her boyfriend broke up.", ("3 years",
     "broke up"), ()),
    ("I've got £3,000 on my credit card.", "Credit card's paid off!", ("paid off",), ("£3,000",)),
    ("We have a mortgage with Nationwide.", "We've paid off the mortgage!! Mortgage free at 52", ("mortgage free",),
     ("mortgage with nationwide",)),
    ("I owe my dad £2,000 for the car.", "Paid dad back the £2,000 today.", ("paid",), ("owe",)),
    ("I have a car loan of £8,000.", "Paid off my phone early.", ("car loan", "phone"), ()),
    ("I broke my wrist skiing, it's in a cast.", "Wrist is all healed!", ("healed",), ("in a cast",)),
    ("I pulled my hamstring at football.", "hamstring's fine now, played 90 mins on Sunday", ("fine",),
     ("pulled",)),
    ("I've got a bad back, can't lift anything.", "Back's much better now.", ("better",), ("bad back",)),
    ("I sprained my ankle at netball.", "My son's arm has healed nicely.", ("sprained", "healed"), ()),
    ("I'm a barista at Costa.", "Costa let me go on Friday.", ("let",), ("barista at costa",)),
    ("I work for the council in planning.", "I've resigned from the council.", ("resigned",),
     ("work for the council",)),
    ("I work nights at the Amazon warehouse.", "Quit the warehouse job, starting at Asda on Monday", ("asda",),
     ("work nights",)),
    ("I'm a teacher at Park School.", "Today was my last day at Park School!", ("last day",),
     ("teacher at park",)),
    ("I work at Boots on the high street.", "My wife got laid off from Boots.", ("works at boots", "laid off"), ()),
    ("I can't stand cooking.", "I've actually got into cooking, made a curry last night!", ("cooking",),
     ("stand cooking",)),
    ("I'm vegan.", "Eating meat again, couldn't keep it up.", ("meat again",), ("user is vegan",)),
    ("I'm pescatarian.", "I've started eating chicken again.", ("chicken",), ("pescatarian",)),
    ("I hate cricket.", "My son loves cricket now.", ("hates cricket", "loves cricket"), ()),
    ("Booked a table at Dishoom for Friday.", "Dishoom's cancelled, the babysitter fell through.", ("cancelled",),
     ("booked a table",)),
    ("I've got a job interview at Arup on Tuesday.", "The interview's been cancelled, they filled the role.",
     ("cancelled",), ("got a job interview",)),
    ("We're going to Crete in August, all booked!", "Crete's off, we can't afford it now.", ("off",),
     ("going to crete",)),
    ("My niece's birthday party is on Saturday.", "oops, the party's on Sunday not Saturday", ("party", "sunday"),
     ("saturday",)),
    ("I'm flying to Lisbon on the 3rd.", "I mean the 4th, not the 3rd.", ("lisbon", "4th"), ("3rd",)),
    ("Our anniversary dinner is at 7pm.", "Actually it's 8pm not 7pm.", ("dinner", "8pm"), ("7pm",)),
    ("My sister lives in Luton.", "I meant Leeds, not Luton, autocorrect lol", ("sister", "leeds"), ("luton",)),
    ("My flight is on Friday.", "It's a coat day not a t-shirt day lol", ("flight", "friday"), ()),
)  # fmt: skip

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
