"""Held-out test lives: users telling facts (and changes) over several chats, then asking later."""

from __future__ import annotations

HELD = (
    (
        "priya",
        (
            (
                "hi! can you help me write a cover letter? I'm a staff nurse on a cardiac ward in Leicester, been there 6 yrs",
                "it's for a band 6 post at Manchester Royal Infirmary, deadline is friday so no pressure lol",
            ),
            (
                "ugh night shifts this week. I do 4 on, mon to thu. any tips for sleeping during the day?",
                "my cat Biscuit keeps sitting on my face at 11am 🙃",
            ),
            (
                "GOT THE JOB 🎉🎉🎉",
                "start date is the 1st of next month so I need a flat in manchester asap, budget about £900. which areas are nice but not crazy?",
            ),
            (
                "ok found a place in Didsbury! 2 bed, £950 which is a bit over but worth it",
                "moving day is saturday, biscuit is NOT going to enjoy the car ride",
            ),
            (
                "settling in!! new rota is long days only, tues wed sat. soooo much better than nights",
                "what's a good batch cooking recipe? something with lentils maybe",
            ),
            (
                "oh my sister Anjali is getting married in Goa in December!! need to book flights, when's usually cheapest to fly from the UK to india?",
            ),
            (
                "ugh anjali's moved the wedding to january, the venue double booked them 🙄 so flights need changing",
                "how do I ask for annual leave politely when I've only just started lol",
            ),
        ),
        (
            ("remind me, which hospital am I working at now?", ("manchester royal",), ()),
            ("what part of town do I live in these days?", ("didsbury",), ("leicester",)),
            ("which days am I on shift at the moment?", ("tues wed sat", "long days"), ("mon to thu",)),
            ("when's my sister's wedding again?", ("january",), ("december",)),
            ("what's my cat called?", ("biscuit",), ()),
            ("what's my boyfriend's name?", (), ()),
        ),
    ),
    (
        "tomas",
        (
            (
                "hey what wire gauge do i need for a 50 amp sub panel, run is about 80 ft",
                "im an electrician but mostly residential. hauling all the conduit in my silverado w 200k on it lol",
            ),
            (
                "doctor says i gotta lose weight. 248 lbs at 5'10, not great",
                "gonna try keto, my buddy swears by it. can u give me a shopping list",
            ),
            (
                "my daughter Kasia turns 16 next month and she wants a car lol no way",
                "whats a safe first car for a teenager under 8k",
            ),
            (
                "down to 236!!",
                "but honestly keto is killing me i miss bread. switching to just counting calories, like 2000 a day",
            ),
            (
                "traded in the old truck for a 2021 F-150, the transmission was shot anyway",
                "also tweaked my knee crawling around in an attic on a job, ortho appt on the 14th",
            ),
            (
                "knee is a torn meniscus. surgery on the 3rd",
                "no ladders for 6 weeks which is a problem in my line of work haha",
                "can u help me write a text to my customers saying jobs are delayed",
            ),
        ),
        (
            ("what am I driving these days?", ("f-150",), ("silverado",)),
            ("what's my weight at the moment, last I told you?", ("236",), ("248",)),
            ("what kind of diet am I on now?", ("counting calories", "2000"), ()),
            ("what did the ortho find with my knee?", ("meniscus",), ()),
            ("what's my kid's name again?", ("kasia",), ()),
            ("where did I do my apprenticeship?", (), ()),
        ),
    ),
    (
        "mei",
        (
            (
                "can u explain python decorators like im 5",
                "im a backend dev but mostly go, python at work is new. honestly thinking of quitting and going to Grab, my team lead is a nightmare",
            ),
            (
                "my bf Daniel and I are going to Bali for our anniversary in march!! what should we not miss",
                "we're both kinda lazy so beaches > hiking lol",
            ),
            (
                "cancelled the bali trip. we broke up.",
                "it's fine. it's not fine. can you recommend some sad but hopeful books",
            ),
            (
                "started bouldering with my colleague Hui Min, it's sooo fun",
                "we go tues and fri nights at Boulder Planet",
                "my forearms are dead 💀",
            ),
            (
                "remember that my dog is called Mochi, he's a shiba. I always forget to tell you stuff about him",
                "also pls forget what I said about jumping ship, my manager sometimes borrows this laptop 😅",
            ),
            (
                "climbing update: switched to mon and thurs bc hui min has choir on fridays now",
                "and I finally sent my first V4!!! 🧗‍♀️",
                "ok that's all lol ty",
            ),
        ),
        (
            ("which nights do I go climbing now?", ("mon and thurs",), ("tues and fri",)),
            ("am I still doing the Bali trip in March?", ("cancelled",), ()),
            ("am I seeing anyone right now?", ("broke up",), ("daniel",)),
            ("what's my dog's name?", ("mochi",), ()),
            ("was I planning to move to another company?", ("jumping ship",), ("grab",)),
            ("when is my mum's birthday?", (), ()),
        ),
    ),
    (
        "olu",
        (
            (
                "Good evening. Please help me convert my CV to Canadian format. I am a chartered accountant (ICAN), 14 years experience, currently finance manager at a bank in Lagos.",
            ),
            (
                "Our PR was approved!! We land in Calgary on 12 June. Me, my wife Funmi and our twin boys Tobi and Tayo (9)",
                "What do I need to do in the first week after landing?",
            ),
            (
                "Landing postponed to 3 July, the boys' school term doesn't end until late June.",
                "Also what is typical rent for a 3 bedroom in NE Calgary?",
            ),
            (
                "We are here! Cold even in July lol",
                "Renting a townhouse in Saddle Ridge, $2,400 a month",
            ),
            (
                "Small correction: our rent is actually $2,250, the figure I gave you included the parking stall.",
                "And I got an offer! Staff accountant at an oil and gas firm, $68k. It's a step down from my title back home but it's a start",
            ),
            (
                "Good news, passed my CPA bridging exam and they bumped me to senior, now 79k 🙏",
                "Can you help me draft a thank you note to my manager, Linda",
            ),
        ),
        (
            ("what date did we finally arrive in Canada?", ("3 july",), ("12 june",)),
            ("how much do I earn now?", ("79k",), ("68k",)),
            ("how much rent do we pay?", ("2,250",), ("2,400",)),
            ("which neighbourhood are we living in?", ("saddle ridge",), ()),
            ("what are my boys called again?", ("tobi", "tayo"), ()),
            ("which church do we go to?", (), ()),
        ),
    ),
    (
        "hannah",
        (
            (
                "Hello, I'm not very good with these things, my grandson set it up for me. When should I prune my roses?",
                "I'm in Devon if that matters. My old spaniel Bramble keeps digging round them too!",
            ),
            (
                "My doctor has put me on amlodipine for my blood pressure, 5mg. Are there side effects I should look out for?",
                "Thank you dear, that's very helpful.",
            ),
            (
                "Sad news, we had to have Bramble put to sleep on Tuesday. She was 15. The house is very quiet.",
                "Thank you, you're very kind.",
            ),
            (
                "I've joined a watercolour class at the village hall, Thursday mornings. I'm hopeless but it's lovely company",
                "How do I stop the paint going muddy?",
            ),
            (
                "The ankle swelling was awful so the GP has switched me to losartan instead",
                "And I've adopted a cat! A ginger tom from Cats Protection called Marmalade. He's 4 and very dignified.",
            ),
            (
                "My grandson Oliver is coming to stay for half term, he's 11. Any ideas for rainy day activities?",
                "Oh and the art class has moved to Wednesday afternoons, the vicar needs the hall on Thursdays now",
            ),
        ),
        (
            ("which blood pressure tablet am I taking now?", ("losartan",), ("amlodipine",)),
            ("what day do I go painting?", ("wednesday",), ("thursday mornings",)),
            ("what pets have I got at the moment?", ("marmalade", "ginger tom"), ("spaniel",)),
            ("what's my grandson's name?", ("oliver",), ()),
            ("which part of the country do I live in?", ("devon",), ()),
            ("what subject did I teach before I retired?", (), ()),
        ),
    ),
    (
        "diego",
        (
            (
                "bro i need a workout split, 4 days a week, weekdays only bc i work at a cafe on weekends",
                "bench is at 80kg rn, wanna hit 100 by summer",
            ),
            (
                "can u help me w my thesis intro? its about urban heat islands in madrid",
                "im in my last year of environmental engineering at the UPM",
            ),
            (
                "quit the café job finally lol, the manager was insane",
                "gonna focus on the thesis and maybe tutor maths on the side",
            ),
            (
                "hit 90 on bench today!!! 💪",
                "also i met someone, her name's Lucia, we've been on 3 dates. where should i take her for the 4th",
            ),
            (
                "wait i think i told u the wrong city for my thesis, it's valencia, my friend is the one doing the other one lol",
                "lucía and i are official now 🥰",
                "AND got an offer for a summer internship at Acciona in the water treatment team!!",
            ),
        ),
        (
            ("what's my best bench now?", ("90",), ("80kg",)),
            ("which city is my thesis about?", ("valencia",), ("madrid",)),
            ("am I still working at the café on weekends?", ("quit",), ()),
            ("who's my girlfriend?", ("lucia", "lucía"), ()),
            ("where am I interning this summer?", ("acciona",), ()),
            ("what's my brother's name?", (), ()),
        ),
    ),
    (
        "grace",
        (
            (
                "hey! can you help me name a product launch campaign? we're a kiwi skincare brand, I head up marketing",
                "target is women 25-40, vibe is clean + playful",
            ),
            (
                "ok personal one: I'm 14 weeks pregnant 🤰 due date is 3 october. what should I be eating?",
                "I'm vegetarian so iron is a worry",
            ),
            (
                "midwife moved my due date to 19 september after the scan",
                "also we need a bigger car, my mazda 2 won't fit a pram + the dog",
            ),
            (
                "bought a second hand Toyota RAV4 hybrid 🙌",
                "Kowhai (our lab x) has already claimed the boot lol",
            ),
            (
                "she's here!!! Aria Rose, born 16 sept, 3.4kg 💛",
                "sorry, not a question, just wanted to tell someone lol",
            ),
            (
                "back to work in feb, 3 days a week instead of full time",
                "how do I write an out of office for my first day back that isn't cringe",
            ),
        ),
        (
            ("when was my daughter born?", ("16 sept",), ("3 october", "19 september")),
            ("what did we name the baby?", ("aria",), ()),
            ("what car do I drive now?", ("rav4",), ("mazda",)),
            ("how many days a week will I be working once I'm back?", ("3 days",), ()),
            ("what's our dog called?", ("kowhai",), ()),
            ("what does my partner do for a living?", (), ()),
        ),
    ),
    (
        "raj",
        (
            (
                "Namaste. I want a GST invoice template for my shop, we sell sarees and dress material in Pune",
                "Also one more thing, I am diabetic, metformin 500 twice daily. Which sweets are less bad for Diwali 😅",
            ),
            (
                "My daughter Sneha got admission for MS in Melbourne!! Leaving in August",
                "What documents she needs for student visa",
            ),
            (
                "Doctor increased my tablet dose to 1000 mg, sugar is still high",
                "He says walk daily. I will start morning walk 6am at the park",
            ),
            (
                "I have stopped smoking from 1st of this month. 20 years habit. 11 days now 💪",
                "Tell me some tips for cravings",
            ),
            (
                "Sneha reached safely, she is staying with 2 other Indian girls near the uni",
                "Walking going good but shifted it to evening, mornings too much rush with shop opening",
            ),
            (
                "Bad news I smoked again at my nephew's wedding. Feeling ashamed. Starting again from today.",
                "Also HbA1c came 7.1, doctor is happy",
            ),
        ),
        (
            ("what dose of metformin am I on?", ("1000",), ("500",)),
            ("what time of day do I do my walk?", ("evening",), ("6am",)),
            ("which city is my daughter studying in?", ("melbourne",), ()),
            ("have I managed to stay off cigarettes?", ("smoked again", "starting again"), ("11 days",)),
            ("what was my last HbA1c?", ("7.1",), ()),
            ("what is my wife's name?", (), ()),
        ),
    ),
    (
        "chloe",
        (
            (
                "omg can u help me study for my anatomy exam, it's on the skeletal system",
                "nursing major is no joke 😭",
            ),
            (
                "my roommate keeps having her bf over like every night, how do I bring it up without it being awkward",
                "also i joined the ultimate frisbee club to make friends lol",
            ),
            (
                "ok i did it. i'm switching to psych. the old major was making me miserable",
                "my mom is lowkey mad lol",
            ),
            (
                "got moved to a single in Morrill Hall!! bye roommate drama",
                "also i went vegan like 2 weeks ago, what are easy dorm meals w/ a microwave only",
            ),
            (
                "update i am no longer vegan lol, cheese won. still no meat tho",
                "also dropped frisbee, practices are 7am saturdays and i am not that person",
            ),
            (
                "i got a job at the campus library, 12 hrs a week",
                "can u help me make a schedule so i don't fall behind in stats",
            ),
        ),
        (
            ("what am I majoring in now?", ("psych",), ("nursing",)),
            ("which hall do I live in?", ("morrill",), ()),
            ("what do I eat these days, diet wise?", ("no meat", "cheese", "no longer vegan"), ()),
            ("how many hours a week is my job?", ("12",), ()),
            ("am I still in a sports club?", ("dropped frisbee",), ()),
            ("what's my hometown?", (), ()),
        ),
    ),
    (
        "jonas",
        (
            (
                'Hi, could you review this microcopy for an onboarding flow? "Let\'s get you set up" vs "Get started"',
                "Context: I'm a UX designer at a fintech, fully remote. Oh and remember that my son Elias is allergic to peanuts, I'll be asking you for recipes at some point",
            ),
            (
                "Signed up for Göteborgsvarvet in May! My half marathon PB is 1:52, I'd love to go under 1:45",
                "Can you make me a 12-week plan, I can run 4x a week",
            ),
            (
                "Pulled my calf on an interval session 😩 physio says no running for 3 weeks",
                "Is swimming ok in the meantime?",
            ),
            (
                "Calf's healed, back at it but only 3 runs a week now",
                "Also big news, we're moving to Malmö in summer, Emma got a professorship at Lund",
            ),
            (
                "Race done!! 1:48:30, new PB even if I missed the goal",
                "Moving date is set for June 20. Any tips for packing with a 6 year old underfoot?",
            ),
        ),
        (
            ("what's my half marathon personal best?", ("1:48",), ("1:52",)),
            ("how many runs a week am I doing?", ("3 runs",), ("4x",)),
            ("what is my son allergic to?", ("peanut",), ()),
            ("which city are we relocating to?", ("malmö",), ()),
            ("what's the date of our move?", ("june 20",), ()),
            ("what's Emma's favourite food?", (), ()),
        ),
    ),
    (
        "fatima",
        (
            (
                "salut! can you help me price a translation job? 12,000 words legal, arabic to french",
                "I'm freelance, based in Lyon, usually charge 0.10€/word. sorry if I'm slow, Pistache (my cat) is sitting on the keyboard lol",
            ),
            (
                "I'm engaged!!! 💍 Youssef asked me last weekend",
                "we're thinking wedding in Marrakech summer 2025. my cousin Salma is going through a divorce though so family stuff is a bit tense rn",
            ),
            (
                "had to rehome our cat 😢 youssef turned out to be really allergic. she went to my cousin Nadia in grenoble so at least I can visit",
            ),
            (
                "raised my rate to 0.12€/word, clients didn't even blink lol",
                "also can you forget what I told you about Salma's situation? I shouldn't have shared that, it's her business",
            ),
            (
                "we pushed the wedding to spring 2026, the venue was booked out",
                "and we found an apartment together in Croix-Rousse!! moving in next month",
            ),
            ("rent is 1,150 for the new place, split 50/50. can you help me make a shared budget spreadsheet?",),
        ),
        (
            ("when's the wedding now?", ("spring 2026",), ("summer 2025",)),
            ("how much do I charge per word these days?", ("0.12",), ("0.10",)),
            ("is Pistache still living with me?", ("rehome", "grenoble"), ()),
            ("what's going on with Salma at the moment?", ("shouldn't have shared",), ("divorce",)),
            ("which area of Lyon are we moving to?", ("croix-rousse",), ()),
            ("what does my fiancé do for work?", (), ()),
        ),
    ),
    (
        "ben",
        (
            (
                "mate what's the best way to keep a 6.5m boat's battery charged when it's sitting for 2 weeks",
                "I'm FIFO, 2 weeks on 1 off at a coal mine in the Bowen Basin",
            ),
            (
                "having the kids this weekend, Jack's 12 and Ruby's 8, what's something to do in Brissy that isn't a shopping centre",
            ),
            ("roster's changing to 8 on 6 off from next month, reckon that's better for seeing the kids",),
            ("give us a good dad joke for the kids, they reckon mine are all rubbish",),
            (
                "little correction, ruby's actually 9 now, had her birthday last week and I'm a useless dad for not saying lol",
            ),
            (
                "chucked in the mine job. got a gig as a maintenance planner at the port, home every night 🙌",
                "sold the boat too, wasn't using it enough",
            ),
            (
                "been seeing someone, Kerry, she's a vet nurse. early days",
                "what's a good first weekend away, not too far from brisbane",
            ),
        ),
        (
            ("what's my work schedule like now?", ("home every night",), ("8 on 6 off", "2 weeks on")),
            ("where am I working these days?", ("maintenance planner", "the port"), ("bowen basin", "coal mine")),
            ("have I still got the boat?", ("sold the boat",), ("6.5m",)),
            ("how old is my daughter?", ("9",), ()),
            ("who's the woman I've been seeing?", ("kerry",), ()),
            ("what's my ex-wife's name?", (), ()),
        ),
    ),
)
