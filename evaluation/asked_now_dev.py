"""Probe of users' lives: twelve users told over several chat sessions, then asked about later.

Each user: (user id, sessions oldest first as tuples of the user's turns, questions as
(question, answer terms, stale terms)). Written blind, without reading the rules or other cases.
"""

from __future__ import annotations

DEV = (
    (
        "marguerite",
        (
            (
                "hello dear, my grandson set this up for me. I'm Marguerite, 67, retired now after 30 years teaching French at a comprehensive in Bristol",
                "Can you tell me what foods to avoid with blood pressure tablets? I'm on amlodipine 5mg",
            ),
            ("my old cat Biscuit has stopped eating, she's 17. vet on monday. I'm worried sick",),
            (
                "Biscuit was put to sleep on Tuesday. The house is so quiet without her.",
                "could you help me write a little poem for her",
            ),
            (
                "My sister Colette and I have booked Madeira for the 14th of March, 10 nights in Funchal! what should I pack",
                "thank you, that's very thorough",
            ),
            (
                "GP has taken me off the amlodipine because of my swollen ankles, I'm on losartan now. Any side effects I should look out for?",
                "Also the holiday has been pushed back to May, Colette's knee op got moved",
            ),
            (
                "I've joined a watercolour class at the community centre on Thursday mornings, feel like a schoolgirl again 😊",
                "what brushes would you recommend for a beginner",
            ),
        ),
        (
            ("which blood pressure pill am I taking at the moment?", ("losartan",), ("5mg",)),
            ("do I still have a cat?", ("put to sleep",), ("stopped eating",)),
            ("when are Colette and I off to Madeira now?", ("may",), ("march",)),
            ("what subject was it I used to teach?", ("french",), ()),
            ("what's my Thursday morning activity these days?", ("watercolour",), ()),
            ("what's my grandson's name?", (), ()),
        ),
    ),
    (
        "dayo",
        (
            (
                "abeg help me fix this excel formula, VLOOKUP keeps returning #N/A",
                "its for the monthly loan report at GTBank, i'm a credit analyst in the Lagos head office",
            ),
            (
                "so I got the Canadian PR!!! 🇨🇦 planning to move end of summer",
                "what should I know about renting in Toronto",
            ),
            (
                "wassup. signed for a 1 bed in Scarborough, $1,950 a month, is that reasonable?",
                "my fiancée Tolu will join me next year once her masters is done",
            ),
            (
                "landed in Toronto last week, cold already lol",
                "started at Wealthsimple on monday as a data analyst, the onboarding is a lot",
            ),
            ("how do I build credit history here from zero",),
            ("landlord is raising it to 2,100 from March 😩 is that even legal in Ontario?",),
            ("quick one: how do I make jollof without it burning at the bottom",),
        ),
        (
            ("which city am I living in now?", ("toronto",), ("lagos",)),
            ("remind me who my employer is", ("wealthsimple",), ("gtbank",)),
            ("how much is my rent?", ("2,100",), ("1,950",)),
            ("what's my partner called again?", ("tolu",), ()),
            ("what's my mum's name?", (), ()),
        ),
    ),
    (
        "kenji",
        (
            (
                "I'm an ER nurse, 3 night shifts a week (sun/mon/tue), and I'm trying to train for the Portland marathon in October. can you build me a plan around that?",
                "current marathon PB is 3:42 from Chicago last year",
            ),
            (
                "heel pain first thing in the morning, like stabbing. pretty sure it's plantar fasciitis, I see it at work all the time lol",
                "any stretches?",
            ),
            (
                "good news, switched to days! 7a-7p wed thu fri now. finally get to see the kids at dinner",
                "re-do the training plan pls",
            ),
            ("how do I get my 6 yo to eat vegetables, asking for a friend (me)",),
            ("foot is fine now, been pain free for 3 weeks 🙌",),
            ("whats a good gel for long runs that doesn't wreck your stomach",),
            (
                "PORTLAND DONE. 3:31:08!!! new PB by 11 min",
                "legs are destroyed. recovery tips?",
            ),
        ),
        (
            ("what days am I on shift now?", ("wed thu fri",), ("sun/mon/tue",)),
            ("what's my marathon best?", ("3:31",), ("3:42",)),
            ("is my foot still giving me trouble?", ("pain free",), ("stabbing",)),
            ("what do I do for a living?", ("nurse",), ()),
            ("what's my wife's name?", (), ()),
        ),
    ),
    (
        "sofia",
        (
            (
                "oi! I'm doing my masters in architecture at FAUP in Porto, originally from Curitiba",
                "can u help me make a study timetable, thesis due in june",
            ),
            (
                "my bf Rafael is visiting from Brazil next week!! where should we eat in Porto, I'm vegetarian btw",
                "also my thesis supervisor Prof Almeida is a nightmare honestly, never answers emails",
            ),
            (
                "rafa and I broke up. long distance was killing us. i'm fine. mostly.",
                "tell me something funny pls",
            ),
            (
                "going fully vegan from this month 🌱 can you help me plan meals? cheap ones, student budget",
                "and pls forget what I said about Prof Almeida before, that was unfair, she's been really lovely and helpful lately",
            ),
            ("thesis hand-in moved to september, got an extension 😮‍💨",),
            (
                "went on a date with a guy from my bouldering gym, Tomás. he's cute. ok that's all",
                "what's a good second date idea in Porto",
            ),
        ),
        (
            ("am I seeing anyone at the moment?", ("tomás",), ("rafael",)),
            ("what do I eat, diet-wise?", ("vegan",), ("vegetarian",)),
            ("when do I have to hand my thesis in?", ("september",), ("june",)),
            ("how do I get on with my supervisor?", ("lovely", "helpful"), ("nightmare", "never answers")),
            ("where am I from originally?", ("curitiba",), ()),
            ("which neighbourhood of Porto do I live in?", (), ()),
        ),
    ),
    (
        "gary",
        (
            (
                "right then. doctor says i need to lose weight, i'm 52 and 118kg, type 2 diabetes risk. where do i even start",
                "i drive HGV for a living so im sat down 11 hrs a day eating services food",
            ),
            ("whats the best way to get rid of a squeaky fan belt on a 2011 astra",),
            (
                "down to 111kg!! 7 kg in 6 weeks. no more meal deals lol",
                "my lad Connor is 19 and he's started doing the cooking with me which is nice",
            ),
            (
                "packed in the lorry driving. starting with First Bus next month, regular hours, home every night",
                "bit of a pay cut, 29k instead of 36k but definately worth it",
            ),
            (
                "astra finally died on the M62 😂 got a 2017 skoda octavia estate off a mate for 6 grand",
                "also weighed in at 104 this morning",
            ),
            (
                "we've adopted a retired greyhound called Pepper. shes scared of the stairs, any tips?",
                "cheers pal",
            ),
        ),
        (
            ("what do I weigh now?", ("104",), ("118", "111")),
            ("what do I do for work these days?", ("first bus",), ("hgv",)),
            ("what car have I got?", ("octavia", "skoda"), ("2011",)),
            ("have we got any animals at home?", ("pepper", "greyhound"), ()),
            ("what's my son called?", ("connor",), ()),
            ("what time does my first shift start?", (), ()),
        ),
    ),
    (
        "aroha",
        (
            (
                "kia ora! can you help me plan a maths lesson on fractions for year 5s",
                "my class is 28 kids, pretty mixed ability",
            ),
            (
                "need a birthday party idea for my twins Nikau and Hine, they turn 7 on the 12th of August",
                "budget is tight lol, we rent a little place in Porirua so it'll have to be at the park",
            ),
            (
                "oops wrong date earlier, the twins' birthday is the 21st not what I said. mum brain 🙃",
                "also we're booked for Rarotonga in the October holidays, so excited",
            ),
            (
                "BIG news, I got the deputy principal job!! starts term 1",
                "can you help me write a thank-you email to the board",
            ),
            (
                "we've bought a place in Petone!! settlement in 3 weeks, no more renting 🙌",
                "sadly Raro is off, can't justify it with the deposit gone. maybe next year",
            ),
            (
                "first week as DP done. so many meetings 😵",
                "what's a good way to run a staff meeting that doesn't drag",
            ),
        ),
        (
            ("what date is the twins' birthday?", ("21st",), ("12th",)),
            ("what's my role at school now?", ("deputy principal",), ()),
            ("which suburb do we live in?", ("petone",), ("porirua",)),
            ("are we still going to the Cook Islands this year?", ("raro is off", "can't justify"), ()),
            ("what are my kids' names again?", ("nikau", "hine"), ()),
            ("what's my partner's name?", (), ()),
        ),
    ),
    (
        "lukas",
        (
            (
                "can you explain python asyncio like I'm 5",
                "context: backend dev at a small startup called Taskwerk in Berlin, we're moving everything to async and i'm lost",
            ),
            (
                "remember that I'm allergic to penicillin pls, in case I ever ask about meds",
                "also: best beginner guitar songs? started learning 2 weeks ago",
            ),
            (
                "ok so I met someone. Jana. she lives in Leipzig which is annoying lol",
                "ideas for a weekend in Leipzig?",
            ),
            (
                "gave up on the music thing tbh, my fingertips hate me. doing sourdough now 🍞",
                "why is my starter not rising",
            ),
            (
                "moving out of the WG in Neukölln end of month, Jana and I found a flat in Leipzig-Plagwitz!",
                "Taskwerk is fine with me going fully remote",
            ),
            (
                "moved! boxes everywhere",
                "what's a good German phrase for a housewarming invite, something funny",
            ),
        ),
        (
            ("which city am I living in these days?", ("leipzig", "plagwitz"), ("berlin",)),
            ("am I allergic to anything?", ("penicillin",), ()),
            ("what's my hobby at the moment?", ("sourdough",), ("guitar",)),
            ("who am I going out with?", ("jana",), ()),
            ("do I still have to go into the office?", ("fully remote",), ()),
            ("what's my landlord's name?", (), ()),
        ),
    ),
    (
        "rachel",
        (
            (
                "need help wording a difficult email to a manager who keeps missing 1:1s. I'm in HR at OhioHealth so I should know this lol",
            ),
            (
                "my spin classes are mon/wed/fri at 6am and I'm exhausted. is that too much at 45?",
                "also my daughter Emma (16) just got her learner's permit, pray for me 🙏",
            ),
            (
                "well. got laid off today. whole department restructured",
                "can you help me update my resume",
            ),
            (
                "freelancing a bit doing HR consulting for small businesses while I look. how much should I charge per hour?",
                "btw I've started doing 16:8 fasting, is black coffee ok outside the eating window?",
            ),
            (
                "I GOT IT. senior HR business partner at Nationwide, 112k, start the 3rd",
                "what should I wear first day, it's business casual",
            ),
            (
                "moved my workouts to tues/thurs evenings, the 6am thing wasn't sustainable with the new commute",
                "any good podcasts for the drive?",
            ),
        ),
        (
            ("where am I working now?", ("nationwide",), ("ohiohealth",)),
            ("how much am I earning?", ("112k",), ()),
            ("when do I do my workouts now?", ("tues/thurs",), ("mon/wed/fri",)),
            ("am I on any particular eating plan?", ("16:8",), ()),
            ("remind me what my daughter's called", ("emma",), ()),
            ("what's my favorite restaurant in town?", (), ()),
        ),
    ),
    (
        "minh",
        (
            (
                "hi, can you help me price an illustration commission? 3 characters, full colour, for a book cover",
                "I'm freelance, based in Da Nang",
            ),
            (
                "adopted a kitten!! orange boy, named him Mochi 🧡",
                "what should kittens eat at 8 weeks",
            ),
            (
                "my fiancé Huy is a software engineer at FPT, he wants me to ask you about wedding budget lol. we're getting married 15 December",
            ),
            (
                "small correction, Huy works at Viettel, not the place I said, he switched in spring and I always forget 😅",
                "anyway how many guests is normal for a vietnamese wedding, his mum says 400 😳",
            ),
            (
                "we moved the wedding to next March, my grandma can't travel in winter",
                "help me write a message to guests about the new date",
            ),
            (
                "starting full-time at Sparkle Animation next week as a background artist! no more chasing invoices",
                "Mochi update: Huy sneezes just looking at him, turns out he's allergic, so Mochi lives with my sister Lan now 😿",
            ),
        ),
        (
            ("where does my fiancé work?", ("viettel",), ("fpt",)),
            ("when's the wedding now?", ("march",), ("december",)),
            ("where's my cat living these days?", ("my sister lan", "lives with my sister"), ()),
            ("am I still working for myself?", ("sparkle",), ("freelance",)),
            ("which city am I based in?", ("da nang",), ()),
            ("what's my mum's name?", (), ()),
        ),
    ),
    (
        "tom",
        (
            (
                "how do i integrate x e^x",
                "need it for further maths hw lol, doing maths, further maths and physics A levels",
            ),
            (
                "driving test booked for 14 may!! any tips for roundabouts",
                "i work saturdays at tesco so lessons are sundays",
            ),
            ("put leeds as my firm for comp sci, sheffield insurance. predicted A*AA so should be ok 🤞",),
            (
                "dvsa cancelled my test 💀 new one is 2 july",
                "also quit the supermarket, got a job at nandos fri nights and sundays. the free food is unreal",
            ),
            (
                "can u forget my predicted grades pls, my mum keeps going on about them and i dont want them brought up",
                "changed my mind on uni, swapping so sheffield is my firm. the course has a year in industry",
            ),
            (
                "PASSED!!!! 3 minors",
                "whats the cheapest car to insure for a 17 year old",
            ),
        ),
        (
            ("where's my part-time job now?", ("nandos",), ("tesco",)),
            ("which uni is my first choice?", ("sheffield",), ("leeds",)),
            ("when's my driving test?", ("passed",), ("14 may", "2 july")),
            ("remind me which A levels I'm taking", ("further maths", "physics"), ("a*aa",)),
            ("what's my best mate called?", (), ()),
        ),
    ),
    (
        "fatima",
        (
            (
                "can you give me a low-sugar meal plan? diagnosed with gestational diabetes at 28 weeks 😞",
                "I'm a pharmacist at Boots so i know the theory lol, I just need ideas that aren't boring. we're in Manchester, halal pls",
            ),
            (
                "they've put me on metformin 500mg twice a day",
                "is it normal to feel sick on it?",
            ),
            (
                "help me pack a hospital bag! due date is 9 Feb",
                "thank you that's so helpful x",
            ),
            (
                "she's here!! Zara Noor, born 2 Feb, 3.1kg 💕",
                "how often should a newborn feed? I'm exhausted",
            ),
            (
                "metformin stopped, sugars back to normal after the birth 🙌",
                "also not going back to the high street after mat leave, I've accepted a practice pharmacist role at a GP surgery in Didsbury from September",
            ),
            ("Zara is 10 weeks and sleeping 5 hours straight?? is that ok",),
        ),
        (
            ("am I still on any diabetes medication?", ("metformin stopped", "back to normal"), ("500mg",)),
            ("where will I be working after my maternity leave?", ("gp surgery", "didsbury"), ("boots",)),
            ("what was my daughter's birth date again?", ("2 feb",), ("9 feb",)),
            ("what did we call the baby?", ("zara",), ()),
            ("what does my husband do for a living?", (), ()),
        ),
    ),
    (
        "ravi",
        (
            (
                "Good morning. I am a civil engineer at L&T in Pune, retiring this March after 34 years. I want to learn Python to keep my mind sharp. Where to begin?",
            ),
            ("My son Arjun lives in Dallas, we plan to visit him in June. What documents are needed for the B2 visa?",),
            (
                "Correction to earlier, Arjun shifted to Austin last year, I keep saying the old place. Wife Sunita also corrects me always 😄",
                "Visa interview is only available in August, so trip will have to be after that, maybe September",
            ),
            (
                "Today was my last day at office. Farewell party was very emotional.",
                "Now what should a retired person do in the first week haha",
            ),
            ("Knee replacement surgery done on right knee on 3rd. Physio says walk 2 km daily, slowly",),
            (
                "Good progress, now walking 5 km every morning without stick",
                "Can you explain Python list comprehension with simple example",
            ),
        ),
        (
            ("which city does my son live in?", ("austin",), ("dallas",)),
            ("when are we going to see Arjun?", ("september",), ("june",)),
            ("am I still employed at L&T?", ("last day", "retired"), ()),
            ("how far am I walking each day now?", ("5 km",), ("2 km",)),
            ("what's my wife's name?", ("sunita",), ()),
            ("what is my blood group?", (), ()),
        ),
    ),
)
