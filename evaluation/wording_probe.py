"""The wording families added in rounds 15, 16 and 19 (from fresh probes of chat turns), kept apart so that
each module stays short; :mod:`evaluation.wording` appends them after :mod:`evaluation.wording_recent`'s.
Same record: a chat case is (the user's turn, or "the agent's question >> the user's turn"; phrases its
memories must contain; phrases they must not). DEV cases were used while writing the rules; HELD-OUT
cases were written with them, before the rules' first run, and are only measured."""

from __future__ import annotations

from evaluation.wording_family import Family

PROBE_FAMILIES: tuple[Family, ...] = (
    # -- round 15: the name the user wants to be called ("Call me Sam" read "Call User Sam").
    Family("chat: the name the user goes by", "dev", chat=(
        ("Call me Sam, nobody uses Samantha except my mum.", ("User goes by the name Sam",), ("Call User",)),
        ("Please call me Jo.", ("User goes by the name Jo",), ("call User",)),
        ("I go by Alex at work.", ("User goes by the name Alex",), ()),
        ("Everyone calls me Bea.", ("User goes by the name Bea",), ("calls User",)),
        ("My name's Robert but call me Bob.", ("User goes by the name Bob",), ("call User",)),
    )),
    Family("chat: the name the user goes by (held out)", "heldout", chat=(
        ("You can call me Kit.", ("User goes by the name Kit",), ("call User",)),
        ("Just call me Dee, it's shorter.", ("User goes by the name Dee",), ("call User",)),
        ("Most people call me Mo.", ("User goes by the name Mo",), ("call User",)),
        ("I prefer to go by Jamie.", ("User goes by the name Jamie",), ()),
        ("pls call me Rafa", ("User goes by the name Rafa",), ("call User",)),
    )),
    # -- round 15: a relative named first without "my", with "'s" for "is" or as a possessive.
    Family("chat: a relative first, without my", "dev", chat=(
        ("Sister's getting married in Portugal next summer, I'm the maid of honour.",
         ("User's sister is getting married in Portugal",), ("that Sister",)),
        ("Brother just got engaged!", ("User's brother just got engaged",), ()),
        ("Mum's visiting next week.", ("User's mum is visiting",), ()),
        ("Husband works from home on Fridays.", ("User's husband works from home",), ()),
        ("Dad's car broke down again.", ("User's dad's car broke down",), ("dad is car",)),
    )),
    Family("chat: a relative first, without my (held out)", "heldout", chat=(
        ("Grandpa's turning 90 this weekend.", ("User's grandpa is turning 90",), ()),
        ("Son started nursery today.", ("User's son started nursery",), ()),
        ("Girlfriend surprised me with tickets to Hamilton.", ("User's girlfriend surprised User",), ()),
        ("Daughter's learning the violin.", ("User's daughter is learning the violin",), ()),
        ("Sister's flat flooded last night.", ("User's sister's flat flooded",), ("sister is flat",)),
    )),
    # -- round 15: an interjection the filler list did not have ("Nah, I'm more of a tea person").
    Family("chat: any interjection first", "dev", chat=(
        ("Nah, I'm more of a tea person.", ("User is more of a tea person",), ("Nah",)),
        ("Welp, I failed my driving test.", ("User failed User's driving test",), ("Welp",)),
        ("Yikes, I forgot my passport at home.", ("User forgot User's passport",), ("Yikes",)),
        ("Lol, I ate the whole cake.", ("User ate the whole cake",), ("Lol",)),
        ("Yesterday, I adopted a kitten.", ("adopted a kitten", "7 May 2023"), ()),
    )),
    Family("chat: any interjection first (held out)", "heldout", chat=(
        ("Yeah, I'm allergic to shellfish.", ("User is allergic to shellfish",), ("Yeah",)),
        ("Ooh, I love that café.", ("User loves that café",), ("Ooh",)),
        ("Whew, I finally paid off my car.", ("User finally paid off User's car",), ("Whew",)),
        ("Aw, I miss my old dog.", ("User misses User's old dog",), ("Aw",)),
        ("Tonight, I'm cooking for my in-laws.", ("cooking for User's in-laws",), ("that Tonight",)),
    )),
    # -- round 15: "forget what I said about X" and the change said after it, with "it" for X.
    Family("chat: forget what I said about something", "dev", chat=(
        ("Forget what I said about the marathon, I'm not doing it.", ("User is not doing the marathon",),
         ("doing it",)),
        ("Scratch what I told you about the job offer, I turned it down.", ("User turned the job offer down",),
         ("turned it",)),
        ("Ignore what I said about the new sofa, we're returning it.", ("returning the new sofa",),
         ("returning it",)),
    )),
    Family("chat: forget what I said about something (held out)", "heldout", chat=(
        ("Forget what I told you about the new job, I didn't take it.", ("User didn't take the new job",),
         ("take it",)),
        ("Disregard what I said about the diet, I quit it.", ("User quit the diet",), ("quit it",)),
        ("forget what i said about the trip to Spain, we cancelled it", ("cancelled the trip to Spain",),
         ("cancelled it",)),
    )),
    # -- round 15: a request to remember asked as a question ("Can you keep in mind that ...?").
    Family("chat: remember, asked as a question", "dev", chat=(
        ("Can you keep in mind that I'm on a low FODMAP diet?", ("User is on a low FODMAP diet",), ()),
        ("Could you remember that my flat is on the 4th floor?", ("User's flat is on the 4th floor",), ()),
        ("Will you note that I'm left-handed?", ("User is left-handed",), ()),
    )),
    Family("chat: remember, asked as a question (held out)", "heldout", chat=(
        ("Can you please remember that I don't eat pork?", ("User doesn't eat pork",), ()),
        ("Would you keep in mind that my daughter has a nut allergy?", ("User's daughter has a nut allergy",), ()),
        ("could u remember that I work from home on Mondays?", ("User works from home on Mondays",), ()),
    )),
    # -- round 15: "our" in a sentence whose speaker said "my", not "I"; a trailing "sorry".
    Family("chat: our after my, a trailing sorry", "dev", chat=(
        ("My wife is pregnant with our second, due in April.", ("pregnant with their second",), (" our ",)),
        ("My sister is staying in our spare room.", ("in their spare room",), (" our ",)),
        ("i broke my wrist skateboarding so typing is slow sorry", ("typing is slow",), ("sorry",)),
    )),
    Family("chat: our after my, a trailing sorry (held out)", "heldout", chat=(
        ("My mum loved our new garden.", ("their new garden",), (" our ",)),
        ("My son broke our TV.", ("broke their TV",), (" our ",)),
        ("my laptop died so I'm on my phone, sorry", ("on User's phone",), ("sorry",)),
    )),
    # -- round 15, a fourth probe: a present verb said without "I" ("Prefer window seats", "Mainly use
    # Python"), not an imperative ("Send me the list"); "Not much of a morning person"; an instruction
    # in the second half of a sentence ("..., and never book me on Ryanair again").
    Family("chat: a present verb first, no subject", "dev", chat=(
        ("Prefer window seats on long flights.", ("User prefers window seats",), ()),
        ("Mainly use Python and a bit of Go at work.", ("User mainly uses Python",), ()),
        ("Need a new laptop for uni, something light.", ("User needs a new laptop",), ()),
        ("Usually work from home on Fridays.", ("User usually works from home",), ()),
        ("Use metric units please.", (), ("User uses metric",)),
    )),
    Family("chat: a present verb first, no subject (held out)", "heldout", chat=(
        ("Want to learn Japanese before our trip.", ("User wants to learn Japanese",), ()),
        ("Really miss living by the sea.", ("User really misses living by the sea",), ()),
        ("Mostly listen to podcasts on my commute.", ("User mostly listens to podcasts",), ()),
        ("Still own my first guitar.", ("User still owns User's first guitar",), ()),
        ("Send me the list tomorrow.", (), ("User sends",)),
    )),
    Family("chat: what kind of person, said without I'm", "dev", chat=(
        ("Not much of a morning person tbh.", ("User is not much of a morning person",), ()),
        ("More of a cat person really.", ("User is more of a cat person",), ()),
        ("Bit of a coffee snob, I admit.", ("User is a bit of a coffee snob",), ()),
    )),
    Family("chat: what kind of person, said without I'm (held out)", "heldout", chat=(
        ("Not much of a reader these days.", ("User is not much of a reader",), ()),
        ("Kind of a night owl.", ("User is kind of a night owl",), ()),
        ("Sort of a neat freak at home.", ("User is sort of a neat freak",), ()),
        ("A bit of a perfectionist.", ("User is a bit of a perfectionist",), ()),
    )),
    Family("chat: an instruction in the second half", "dev", chat=(
        ("Prefer window seats, and never book me on Ryanair again.", ("Never book the user on Ryanair again",),
         ()),
        ("I'm vegetarian, so always check the menu for me.", ("Always check the menu for the user",), ()),
        ("Thanks, but don't send me reminders on weekends.", ("Never send the user reminders on weekends",), ()),
    )),
    Family("chat: an instruction in the second half (held out)", "heldout", chat=(
        ("Love the plan, but never schedule anything before 9.", ("Never schedule anything before 9",), ()),
        ("I get motion sick, so always book me a front seat.", ("Always book the user a front seat",), ()),
        ("Great, and please don't call me before noon.", ("Never call the user before noon",), ()),
    )),
    # -- round 15, a fifth probe: an identifier that holds "me" ("sam.lee@proton.me" read "proton.User"),
    # "from next month" ("from in June 2023"), a state or a possession said without "I" ("Between jobs",
    # "Have two cats"), "please stop ..." as an instruction, a "-wise," opener.
    Family("chat: identifiers, from a month, states and havings, stop", "dev", chat=(
        ("Just FYI my email changed to sam.lee@proton.me", ("sam.lee@proton.me",), ("proton.User", "FYI")),
        ("I've decided to go part-time from next month.", ("from June 2023",), ("from in",)),
        ("Have two cats and a very old tortoise.", ("User has two cats",), ()),
        ("Between jobs at the moment, so money's tight.", ("User is between jobs",), ()),
        ("Please stop suggesting podcasts, I don't listen to them.", ("Stop suggesting podcasts",), ()),
        ("Work wise, I'm moving to the data team.", ("User is moving to the data team",), ("Work wise",)),
    )),
    Family("chat: identifiers, from a month, states and havings, stop (held out)", "heldout", chat=(
        ("My new site is about.me/jordan if you need it", ("about.me/jordan",), ("about.User",)),
        ("The lease runs until next month.", ("until June 2023",), ("until in",)),
        ("Have a Honda Civic, 2015 model.", ("User has a Honda Civic",), ()),
        ("On holiday until Monday, so replies will be slow.", ("User is on holiday",), ()),
        ("Pls stop sending me recipes with nuts.", ("Stop sending the user recipes with nuts",), ()),
        ("Health-wise, I'm doing much better.", ("User is doing much better",), ("wise",)),
    )),
    # -- round 15, a sixth probe: "Would love to ...", "Wanna ...", "Currently obsessed with ...", a request
    # to the assistant said as "Please use ...", a thing of the user's named without "my" ("Bike got
    # stolen"), "forgot to mention" around what the user says.
    Family("chat: would, wanna, please do, my things, forgot to say", "dev", chat=(
        ("Would love to visit Japan someday.", ("User would love to visit Japan",), ("Would love",)),
        ("Wanna get fitter before the wedding in June.", ("User wants to get fitter",), ("Wanna",)),
        ("Currently obsessed with sourdough baking.", ("User is currently obsessed with sourdough",), ()),
        ("Please use British spelling.", ("Use British spelling",), ("mentioned that",)),
        ("Bike got stolen from outside work yesterday.", ("User's bike got stolen",), ()),
        ("Forgot to say, the kids are 5 and 8.", ("the kids are 5 and 8",), ("forgot to say",)),
    )),
    Family("chat: would, wanna, please do, my things, forgot to say (held out)", "heldout", chat=(
        ("Would like to try climbing at some point.", ("User would like to try climbing",), ("Would like",)),
        ("Wanna save up for a new camera.", ("User wants to save up for a new camera",), ("Wanna",)),
        ("Currently addicted to Wordle.", ("User is currently addicted to Wordle",), ()),
        ("Please keep answers under 100 words.", ("Keep answers under 100 words",), ("mentioned that",)),
        ("Laptop died this morning, writing from my phone.", ("User's laptop died",), ()),
        ("I'm allergic to penicillin, forgot to mention.", ("User is allergic to penicillin",), ("forgot",)),
    )),
    # -- round 15: a short life event said in a few words ("Got a puppy!" gave no memory: too few words).
    Family("chat: a life event in few words", "dev", chat=(
        ("Got a puppy!", ("User got a puppy",), ()),
        ("Bought a house!", ("User bought a house",), ()),
        ("I quit my job.", ("User quit User's job",), ()),
        ("Got promoted!", ("User got promoted",), ()),
        ("Ok thanks!", (), ("User",)),
    )),
    Family("chat: a life event in few words (held out)", "heldout", chat=(
        ("Adopted a cat today.", ("User adopted a cat",), ()),
        ("Got married!", ("User got married",), ()),
        ("I sold my car.", ("User sold User's car",), ()),
        ("Lost my wallet.", ("User lost User's wallet",), ()),
        ("Sounds good, thanks!", (), ("User",)),
    )),
    # -- round 15: a second verb of the speaker's after a comma, its "I" left out ("Love hiking, hate running"
    # read "User loves hiking, hate running").
    Family("chat: a second verb after a comma", "dev", chat=(
        ("Love hiking, hate running.", ("User loves hiking, hates running",), ()),
        ("I work in Leeds, live in York.", ("lives in York",), ()),
        ("I miss you, love.", (), ("loves",)),
    )),
    Family("chat: a second verb after a comma (held out)", "heldout", chat=(
        ("Not a big reader, prefer audiobooks.", ("prefers audiobooks",), ()),
        ("I drink tea, avoid coffee.", ("avoids coffee",), ()),
        ("I teach maths, coach the football team on weekends.", ("coaches the football team",), ()),
    )),
    # -- round 16 (a recall probe): a rule that cut its clause short ("a nurse at St Mary's", the name
    # ending before "hospital") left the whole clause to come back as a second memory of the same thing.
    Family("chat: a rule's clause said in full, once", "dev", chat=(
        ("I work as a nurse at St Mary's hospital, mostly night shifts.",
         ("User works as a nurse at St Mary's hospital", "night shifts"), (" | ",)),
        ("I work as a nurse at St Mary's hospital.", ("at St Mary's hospital",), (" | ",)),
        ("I work as a porter at King's College hospital, nights mostly.", ("King's College hospital",), (" | ",)),
    )),
    Family("chat: a rule's clause said in full, once (held out)", "heldout", chat=(
        ("I'm a teacher at Oakwood primary school.", ("Oakwood primary school",), (" | ",)),
        ("I work as a chef at Luigi's restaurant in town.", ("at Luigi's restaurant",), (" | ",)),
        ("I've been a receptionist at Parkside dental surgery for years.", ("Parkside dental surgery",), (" | ",)),
    )),
    # -- round 19 (a probe of users' lives over months): "I'm a UX designer at a fintech startup" came back
    # as "works as a UX designer" beside the clause; a promotion then changed one and left the other.
    Family("chat: a job said with 'I'm a', once; still where one was, without 'I'm'", "dev", chat=(
        ("What's the job? >> I'm a UX designer at a fintech startup.", ("UX designer at a fintech startup",), (" | ",)),
        ("I'm a barista at a café near the station.", ("barista at a café near the station",), (" | ",)),
        # "Still on levothyroxine 75mcg every morning" had no subject ("User mentioned that still on ...").
        ("Still on levothyroxine 75mcg every morning.", ("User is still on levothyroxine",), ("mentioned",)),
        ("Still in Leeds, for now.", ("User is still in Leeds",), ("mentioned",)),
        ("Down to 79kg this week!", ("User is down to 79kg",), ("mentioned",)),
    )),
    Family("chat: a job said with 'I'm a', once; still where one was (held out)", "heldout", chat=(
        ("I'm an accountant at a small firm in Leeds.", ("accountant at a small firm in Leeds",), (" | ",)),
        ("What do you do? >> I'm a nurse on a children's ward.", ("nurse on a children's ward",), (" | ",)),
        ("Still at the same company, just a new team.", ("User is still at the same company",), ("mentioned",)),
        ("Currently on antibiotics for a chest infection.", ("User is currently on antibiotics",), ("mentioned",)),
        ("Down to my last 20 euros until payday.", ("User is down to",), ("mentioned",)),
    )),
    # -- round 19, second probe: an aside about the telling at a sentence's end stayed in the memory ("User
    # drives a Fiat Panda, as User said") and hid a request ("Keep answers short please, as I said").
    Family("chat: an aside about the telling at the end", "dev", chat=(
        ("I drive a Fiat Panda, as I said.", ("User drives a Fiat Panda",), ("said",)),
        ("Keep answers short please, as I said.", ("answers short",), ("said", "mentioned that")),
        ("I'm allergic to penicillin, like I told you before.", ("allergic to penicillin",), ("told",)),
    )),
    Family("chat: an aside about the telling at the end (held out)", "heldout", chat=(
        ("My flat is in Hackney, as I mentioned.", ("flat is in Hackney",), ("mentioned",)),
        ("Reply in French from now on, like I said.", ("French",), ("said",)),
        ("I work nights, as you know.", ("works nights",), ("you know",)),
    )),
    # "Actually, for code questions I like detailed explanations": the preference rule kept "User likes
    # detailed explanations", and the clause that says for what was then IGNOREd as the same turn's view.
    Family("chat: a taste said for a case, once, with the case", "dev", chat=(
        ("Actually, for code questions I like detailed explanations.", ("code questions",), (" | ",)),
        ("On weekends I prefer to sleep in.", ("weekends",), (" | ",)),
        ("For long flights I prefer the aisle.", ("long flights",), (" | ",)),
    )),
    Family("chat: a taste said for a case, once, with the case (held out)", "heldout", chat=(
        ("For work emails I prefer a formal tone.", ("work emails",), (" | ",)),
        ("At home I usually drink decaf.", ("home",), (" | ",)),
        ("In the evenings I like to read crime novels.", ("evenings",), (" | ",)),
    )),
)  # fmt: skip
