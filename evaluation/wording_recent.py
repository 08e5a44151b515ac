"""The wording families added in round 9 (from four real-looking chats), kept apart so that each module
stays short; :mod:`evaluation.wording` appends them in this order. Same record as there: a chat case is
(the user's turn, or "the agent's question >> the user's turn"; phrases its memories must contain; phrases
they must not)."""

from __future__ import annotations

from evaluation.wording_family import Family

RECENT_FAMILIES: tuple[Family, ...] = (
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
    # -- round 9: "remind me" is an instruction to keep. DEV used while writing; HELD-OUT only measured.
    Family("chat: remind me", "dev", chat=(
        ("can you remind me to take my insulin at 8pm", ("reminded", "insulin at 8pm"), ()),
        ("remind me to call my mum on Sunday", ("reminded", "call User's mum on Sunday"), ()),
        ("morning! can you remind me what I need for the dentist", ("reminded", "dentist"), ("remind User",)),
    )),
    Family("chat: remind me (held out)", "heldout", chat=(
        ("remind me about the dentist on Thursday", ("dentist on Thursday",), ()),
        ("pls remind me that the rent is due on the 1st", ("rent is due",), ()),
        ("could you remind me to renew the car insurance in March?", ("car insurance",), ()),
    )),
    # -- round 13: a sentence that starts with its past-tense verb before a bare noun, a name or a particle
    # ("Grabbed lunch with Priya"), or with a feeling ("Worried about the exam"); a name ending in -ed is
    # not a verb. DEV used while writing the rule; HELD-OUT written with it, before its first run, only measured.
    Family("chat: a past verb first, no article", "dev", chat=(
        ("Grabbed lunch with Priya today", ("User grabbed lunch with Priya",), ("mentioned that Grabbed",)),
        ("Took Max to the vet this morning", ("User took Max to the vet",), ()),
        ("Joined Strava to track my runs", ("User joined Strava",), ()),
        ("Baked bread with my daughter on Sunday", ("User baked bread",), ()),
        ("Saw Oppenheimer at the cinema", ("User saw Oppenheimer",), ()),
        ("Worried about the exam on Friday", ("User is worried about the exam",), ()),
        ("Ted is my brother-in-law", ("Ted is User's brother-in-law",), ("User ted", "User Ted")),
        ("Red is my favourite colour", (), ("User red", "User Red")),
    )),
    Family("chat: a past verb first, no article (held out)", "heldout", chat=(
        ("Caught up with Marco over drinks last night", ("User caught up with Marco",), ()),
        ("Ran 10k this morning, new personal best", ("User ran 10k",), ()),
        ("Picked up my new glasses today", ("User picked up User's new glasses",), ()),
        ("Signed up for pottery classes on Thursdays", ("User signed up for pottery classes",), ()),
        ("Tried sushi for the first time, loved it", ("User tried sushi",), ()),
        ("Excited for the trip to Japan next month", ("User is excited for the trip",), ()),
        ("Fred is coming over tonight", ("Fred is coming over",), ("User fred", "User Fred")),
        ("Met Sam's parents for the first time", ("User met Sam's parents",), ()),
    )),
    # -- round 13: present verbs that end like a past or a gerund ("I need" read "User need", in the demo).
    # DEV used while writing the rule; HELD-OUT written with it, before its first run, only measured.
    Family("present verbs in -eed or -ing", "dev", (
        ("I need a new laptop.", "User", "User needs a new laptop."),
        ("I really need a break.", "User", "User really needs a break."),
        ("I feed the cat before work.", "Ann", "Ann feeds the cat before work."),
        ("I bring my own lunch.", "User", "User brings User's own lunch."),
        ("I sing in a choir on Tuesdays.", "Jon", "Jon sings in a choir on Tuesdays."),
        ("I agreed to help.", "User", "User agreed to help."),
    )),
    Family("present verbs in -eed or -ing (held out)", "heldout", (
        ("I need to renew my passport.", "Maria", "Maria needs to renew Maria's passport."),
        ("I usually swing by the gym after work.", "User", "User usually swings by the gym after work."),
        ("I bleed easily.", "User", "User bleeds easily."),
        ("I freed up my Friday.", "User", "User freed up User's Friday."),
        ("I still cling to my old phone.", "Ann", "Ann still clings to Ann's old phone."),
        ("I guaranteed the loan.", "User", "User guaranteed the loan."),
        ("I succeed when I plan ahead.", "User", "User succeeds when User plans ahead."),
    )),
    # -- round 14, from a fresh probe of chat turns: a sentence that opens with its "-ing" verb or "Been"
    # (a gerund that is the subject stays one), an interjection first, "Not a fan of" / "Big fan of", and
    # an adverb after "I" that the rewrite conjugated ("If I ever get" read "User evers get").
    # DEV used while writing the rules; HELD-OUT written with it, before its first run, only measured.
    Family("chat: an -ing verb or been first, no subject", "dev", chat=(
        ("Running my first half marathon in October, kinda nervous.", ("User is running User's first half",),
         ("mentioned that",)),
        ("Thinking about selling my car and just biking everywhere.", ("User is thinking about selling User's car",),
         ()),
        ("Been learning Portuguese on Duolingo, 120 day streak!", ("User has been learning Portuguese",), ("beens",)),
        ("Heading to Lisbon next week for a conference.", ("User is heading to Lisbon",), ()),
        ("Working from home today, the office is being renovated.", ("User is working from home",), ()),
        ("Been to Japan twice, loved Kyoto.", ("User has been to Japan twice",), ()),
        ("Running is my favourite way to unwind.", ("unwind",), ("User is running is",)),
        # a sentence about no one is not a memory: this one says "my" so that it is one
        ("Swimming in the lake with my kids was the highlight.", ("highlight",), ("User is swimming",)),
    )),
    Family("chat: an -ing verb or been first, no subject (held out)", "heldout", chat=(
        ("Flying to Chicago on Monday for my cousin's wedding.", ("User is flying to Chicago",), ()),
        ("Training for a triathlon this summer, mostly swimming drills.", ("User is training for a triathlon",),
         ()),
        ("Been meaning to call my grandma all week.", ("User has been meaning to call User's grandma",), ()),
        ("Cooking for eight people tonight, wish me luck.", ("User is cooking for eight people",), ()),
        ("Looking for a cheap flight to Rome in May.", ("User is looking for a cheap flight to Rome",), ()),
        ("Been vegan for three years now.", ("User has been vegan for three years",), ()),
        ("Moving to Austin at the end of the month.", ("User is moving to Austin",), ()),
        ("Gardening helps me switch off after work.", ("switch off",), ("User is gardening helps",)),
    )),
    Family("chat: an interjection, a fan of, an adverb after I", "dev", chat=(
        ("Ugh, my flight to Denver got cancelled again.", ("User's flight to Denver got cancelled again",),
         ("Ugh",)),
        ("Yay! Got the apartment on Elm Street.", ("User got the apartment on Elm Street",), ("Yay",)),
        ("Phew, finally submitted my thesis.", ("User finally submitted User's thesis",), ("Phew",)),
        ("Oh no, I left my charger at the hotel.", ("User left User's charger at the hotel",), ("Oh no",)),
        ("Not a fan of horror movies, comedies are more my thing.", ("User is not a fan of horror movies",),
         ("mentioned that",)),
        ("Big fan of anything with mushrooms.", ("User is a big fan of anything with mushrooms",), ()),
        ("Not sure about the new job offer yet.", ("User is not sure about the new job offer",), ()),
        ("If I ever get a dog I'd name him Pickle.", ("If User ever gets a dog",), ("evers",)),
        ("Forget what I said about the gym membership, I cancelled it.", ("User cancelled the gym membership",),
         ()),
    )),
    Family("chat: an interjection, a fan of, an adverb after I (held out)", "heldout", chat=(
        ("Argh, the printer jammed again right before my presentation.", ("the printer jammed again",), ("Argh",)),
        ("Woohoo, passed my driving test!", ("User passed User's driving test",), ("Woohoo",)),
        ("Meh, the new season of the show was boring.", ("the new season of the show was boring",), ("Meh",)),
        ("Not a big fan of crowded beaches.", ("User is not a big fan of crowded beaches",), ()),
        ("Huge fan of the Lakers since I was a kid.", ("User is a huge fan of the Lakers",), ()),
        ("Not really into video games anymore.", ("User is not really into video games anymore",), ()),
        ("I once met Bono at an airport.", ("User once met Bono",), ("onces",)),
        ("I hardly ever eat red meat.", ("User hardly ever eats red meat",), ()),
        ("Please forget the piano lessons, I quit them in May.", ("User quit the piano lessons",), ()),
        ("Forget my Spotify plan, I cancelled it yesterday.", ("cancelled User's Spotify plan",), ()),
    )),
    # -- round 14, a second fresh probe: a statement that ends in a question ("..., any tips?"), a state
    # said without "I'm" ("Allergic to cats"), "Gonna ...", "No longer ...-ing", "Me and my brother",
    # a parent called "Dad", a short answer that lists what the user is.
    # DEV used while writing the rules; HELD-OUT written with it, before its first run, only measured.
    Family("chat: a trailing question, a state alone, me and someone", "dev", chat=(
        ("I'm thinking of learning the guitar, any tips?", ("User is thinking of learning the guitar",), ()),
        ("Allergic to cats but we have one anyway haha.", ("User is allergic to cats",), ()),
        ("Me and my brother are driving to Cornwall on Saturday.",
         ("User and User's brother are driving to Cornwall",), ()),
        ("My partner and I just adopted a rescue greyhound named Bolt.",
         ("User and User's partner just adopted a rescue greyhound",), ()),
        ("Gonna start therapy next week, been putting it off for ages.", ("User is going to start therapy",), ()),
        ("No longer drinking coffee, switched to matcha.", ("User is no longer drinking coffee",), ()),
        ("Dad turns 70 in March and we're throwing him a party.", ("User's dad turns 70",), ()),
        ("Any dietary restrictions? >> Gluten-free, and my son can't have dairy.",
         ("Gluten-free", "User's son can't have dairy"), ()),
        ("What's your favorite color? >> Probably green, or teal.", ("green",), ()),
    )),
    Family("chat: a trailing question, a state alone, me and someone (held out)", "heldout", chat=(
        ("Planning a trip to Peru in the fall, any must-sees?", ("User is planning a trip to Peru",), ()),
        ("I want to repaint the kitchen, what colour would you pick?", ("User wants to repaint the kitchen",), ()),
        ("Busy with exams until the end of June.", ("User is busy with exams",), ()),
        ("Sick of the rain already.", ("User is sick of the rain",), ()),
        ("Me and Jess are going to the Arctic Monkeys gig on Friday.",
         ("User and Jess are going to the Arctic Monkeys gig",), ()),
        ("My wife and I are celebrating our anniversary in Rome.", ("User and User's wife are celebrating",), ()),
        ("Gonna try the 5:2 diet from Monday.", ("User is going to try the 5:2 diet",), ()),
        ("Not drinking alcohol this month, doing dry January.", ("User is not drinking alcohol this month",), ()),
        ("Mum is coming to stay for a week in August.", ("User's mum is coming to stay",), ()),
        ("Any allergies I should know about? >> Shellfish, and penicillin too.", ("Shellfish",), ()),
    )),
)  # fmt: skip
