"""Chat probe 14: 64 messages written blind for round 28 (see evaluation/chat_probe.py)."""

from __future__ import annotations

from evaluation.chat_probe_cases import C, Case

# fmt: off
CASES: list[Case] = [
    # 1. voice-to-text run-ons
    C("ok so basically i just found out im pregnant with twins and my husband dave is freaking out lol "
      "what are the first things we need to buy",
      [["pregnan", "twin"], ["husband", "dave"]], [],
      "voice run-on: pregnancy with twins plus named husband"),
    C("hey so i work night shifts at the hospital as a nurse and i can never sleep during the day "
      "any tips that actually work",
      [["nurse"], ["night"]], [],
      "voice run-on: occupation and shift pattern"),
    C("we just moved into a new apartment in tucson and the landlord wont fix the heating its been like "
      "two weeks what are my rights here",
      [["tucson"]], [],
      "voice run-on: new city buried in a complaint"),
    C("my son ethan has adhd and his teacher keeps sending notes home saying he cant sit still what should i "
      "say at the parent teacher conference thursday",
      [["ethan", "adhd"]], [],
      "voice run-on: child's diagnosis"),
    C("so i started learning guitar like three months ago and my fingers still hurt every time i practice "
      "is that normal also i only have an acoustic one",
      [["guitar"]], [],
      "voice run-on: new hobby"),
    C("remind me what i should pack for camping my girlfriend and i are going to yosemite in august and "
      "shes super scared of bears",
      [["girlfriend"], ["yosemite"]], [],
      "voice run-on: partner and planned trip"),

    # 2. bullet / numbered lists
    C("Some background before you help me with meal plans:\n- I'm vegetarian\n- my partner eats meat but "
      "hates cilantro\n- we have a 2 year old\n- budget is about $100/week",
      [["vegetar"], ["partner", "cilantro"], ["100"]], [],
      "bullet list: diet, partner dislike, budget"),
    C("About me:\n1. 34, software engineer in Berlin\n2. Originally from Brazil\n3. Learning German, "
      "currently A2\n\nWrite me a short intro I can use at a meetup.",
      [["engineer"], ["berlin"], ["brazil"], ["german"]], [],
      "numbered list: job, city, origin, language study"),
    C("Things my doctor said today:\n- blood pressure is high (150/95)\n- cut back on salt\n- start "
      "lisinopril 10mg\nwhat foods should i avoid?",
      [["blood pressure"], ["lisinopril"]], [],
      "bullet list: health condition and medication"),
    C("Pets:\n- Biscuit (golden retriever, 6)\n- Pepper (tabby cat, 3, diabetic)\nI travel for work a lot, "
      "what's the best pet sitter setup?",
      [["biscuit"], ["pepper", "diabet"], ["travel"]], [],
      "bullet list: two named pets, work travel"),
    C("my schedule this semester\n- organic chem MWF 9am\n- calc 2 TTh\n- work at the campus library "
      "15 hrs/week\nhow do i fit in studying for the MCAT",
      [["mcat"], ["library"]], [],
      "list: student schedule, job, exam goal"),
    C("Allergies in our house:\n* me - shellfish\n* my daughter Nora - peanuts and sesame\n* husband - none\n"
      "suggest a safe takeout order for friday",
      [["shellfish"], ["nora", "peanut"], ["sesame"]], [],
      "star list: allergies split between user and daughter"),

    # 3. typos, text-speak, caps
    C("ngl im so done w my job rn, my boss yells at me every day & i make like 40k. shld i quit b4 i have "
      "smthing else lined up??",
      [["boss"], ["40"]], [],
      "text-speak: job situation and salary"),
    C("MY LANDLORD JUST RAISED MY RENT BY 300 A MONTH HOW IS THAT EVEN LEGAL IN CALIFORNIA",
      [["rent", "300"], ["california"]], [],
      "all caps: rent increase and state"),
    C("cant sleep again, been havin insomnia since my dad passd away in march. any tips that arent "
      "melatonin bc it gives me nightmares",
      [["insomnia"], ["melatonin"]], [],
      "typos: insomnia, bereavement, melatonin reaction"),
    C("tmrw is my bday n im turning 30 😭 wat shld i do to celebrate im in austin",
      [["30"], ["austin"]], [],
      "text-speak: age and city"),
    C("hey can u help me write a txt to my gf, we had a fight bc i forgot our anniversary AGAIN lol "
      "its been 2 yrs",
      [["girlfriend"]], [],
      "text-speak: gf expanded to girlfriend"),
    C("i hav type 1 diabetis since i was 12 and my pump keeps alarming at nite, omnipod 5, wat cud b wrong",
      [["diabet"], ["omnipod"]], [],
      "misspelled condition and device"),
    C("OMG my cat just knocked my laptop off the table and the screen is cracked. its a macbook air m2. "
      "is it worth fixing??",
      [["cat"], ["macbook"]], [],
      "caps and excitement: pet and device owned"),

    # 4. non-native English
    C("Hello, I am from Vietnam and I am study master degree in Melbourne. My wife is coming next month "
      "with our baby. How I find childcare near university?",
      [["vietnam"], ["melbourne"], ["wife"]], [],
      "non-native: origin, study, family"),
    C("I have 45 years and I work like accountant in small company in Madrid. I want change to data "
      "analysis, which course is good for beginner?",
      [["45"], ["accountant"], ["madrid"]], [],
      "non-native: age idiom, job, city"),
    C("My english is not so good, sorry. I am living in Canada since 2 years, I am from Ukraine. I need "
      "write letter to my landlord for the broken window.",
      [["canada"], ["ukrain"]], [],
      "non-native: residence and origin"),
    C("Please explain me how to cook rice in the pot without the rice cooker. In my home country (Nigeria) "
      "we use always the cooker but here in dormitory is not allowed.",
      [["nigeria"], ["dorm"]], [],
      "non-native: home country and housing"),
    C("I am vegetarian from the birth because of religion, I am Jain. Also no onion and garlic. Can you "
      "make for me a list of snacks for the long flight?",
      [["vegetar"], ["jain"], ["onion"]], [],
      "non-native: diet and religion"),
    C("My husband he is diabetic and also he has the kidney problem. What fruits he can eat safely? We are "
      "from Pakistan, we eat mostly rice and roti.",
      [["husband", "diabet"], ["kidney"], ["pakistan"]], [],
      "non-native: husband's health, origin"),

    # 5. long messages with several facts and a request
    C("Okay so some context: I'm a high school history teacher in Ohio, I've been doing it for 12 years, "
      "and I'm burned out. My wife thinks I should go into instructional design since I already build all "
      "my own online materials. We have two kids and a mortgage so I can't take a big pay cut. Can you lay "
      "out what a realistic transition would look like over the next year?",
      [["teacher"], ["ohio"], ["instructional design"], ["mortgage"]], [],
      "long: career, location, goal, finances"),
    C("I'm training for my first marathon (Chicago, October). I'm 52, had knee surgery in 2019 on my left "
      "knee, and I currently run about 25 miles a week. I also can't do early mornings because I work "
      "until 1am at a restaurant. Build me a 16-week plan.",
      [["marathon"], ["52"], ["knee"], ["restaurant"]], [],
      "long: goal, age, surgery, work hours"),
    C("My brother Sam and I are planning a trip to Japan for 10 days in April. He's a huge anime fan, "
      "I'm more into food and hiking. Neither of us speaks any Japanese and I get motion sick on boats. "
      "What itinerary would you suggest?",
      [["japan"], ["sam", "anime"], ["motion"]], [],
      "long: trip, brother's interest, user's motion sickness"),
    C("Quick background: I run a small Etsy shop selling hand-dyed yarn, about 200 orders a month. I do it "
      "on top of my full-time job as a paralegal. My sister helps with packaging on weekends. I want to "
      "figure out whether to raise prices — what should I look at?",
      [["etsy"], ["yarn"], ["paralegal"], ["sister"]], [],
      "long: side business, day job, sister"),
    C("I'm 29, just got diagnosed with celiac last month, and I'm honestly overwhelmed. I live alone, cook "
      "maybe twice a week, and I'm on a pretty tight budget since I'm paying off student loans. What are "
      "cheap gluten-free staples I should stock?",
      [["celiac"], ["alone"], ["student loan"]], [],
      "long: diagnosis, living situation, debt"),
    C("We're renovating the kitchen in our 1920s house in Portland. My husband is a contractor so he's "
      "doing most of the work himself, I'm handling design. Budget's around 25k. I love open shelving but "
      "we have a toddler who climbs everything. Ideas for a layout?",
      [["portland"], ["husband", "contractor"], ["toddler"]], [],
      "long: home, husband's job, child"),

    # 6. imperative tasks and note / fyi prefixes
    C("Plan a birthday party for my son Leo, he's turning 5 and obsessed with dinosaurs.",
      [["leo"], ["dinosaur"]], [],
      "imperative without please: son's age and interest"),
    C("Make a note: my passport expires in June 2026.",
      [["passport", "2026"]], [],
      "make a note prefix"),
    C("note to self: wifi password for the cabin is in the blue notebook, and Grandma's birthday is Oct 14",
      [["grand", "oct"]], [],
      "note to self: relative's birthday"),
    C("fyi I switched jobs, I'm now a product manager at a fintech startup",
      [["product manager"]], [],
      "fyi prefix: job change"),
    C("Write a cover letter for a junior UX designer role. I have a graphic design degree from SCAD and "
      "2 years freelancing.",
      [["graphic design"], ["scad"], ["freelanc"]], [],
      "imperative: background facts inside a task"),
    C("FYI for future chats: I use Linux (Arch), I prefer answers in metric units, and I hate long intros.",
      [["linux"], ["metric"]], [],
      "fyi prefix: tools and preferences"),

    # 7. hedges and negations
    C("I think I might be allergic to amoxicillin? I got a rash last time I took it but the doctor wasn't "
      "sure. Is it safe to take cephalexin?",
      [["amoxicillin"]], [],
      "hedged allergy still kept"),
    C("Never been to Asia, which country is the easiest for a first trip? I'm a pretty picky eater fwiw",
      [["asia"], ["picky"]], [],
      "negation: never visited region; trait"),
    C("I don't drink alcohol at all (been sober 6 years), so what can I order at a bar that isn't just soda?",
      [["sober"]], [],
      "negation: abstinence"),
    C("Maybe I have ADHD? I always lose focus in meetings and forget deadlines. Not diagnosed or anything. "
      "What are ways to cope at work?",
      [["adhd"]], [],
      "hedged self-suspected condition"),
    C("I'm probably moving to Denver in the spring, nothing's final yet. How are the neighborhoods for "
      "someone who bikes everywhere?",
      [["denver"], ["bik"]], [],
      "hedged plan plus habit"),
    C("I'm not on any medications and I've never had surgery, but I'm getting my wisdom teeth out next "
      "week. What should I eat after?",
      [["wisdom"]], [],
      "negations plus upcoming procedure"),
    C("We don't own a car, we just use transit and bikes. Best way to get a Christmas tree home in Boston?",
      [["car"], ["boston"]], [],
      "negation: no car; city"),

    # 8. facts about other people
    C("My wife Priya just got promoted to head of nursing at her hospital, what's a nice way to celebrate "
      "without going overboard?",
      [["wife", "priya"], ["nurs"]], [],
      "wife's name and job"),
    C("my coworker Jen keeps taking credit for my work in standups. she's been there longer than me and is "
      "friends with our manager. how do i handle this",
      [["jen"]], [],
      "coworker relation"),
    C("My best friend Marcus is getting married in Lisbon in September and I'm the best man. Help me with "
      "the speech, he's a total nerd about trains.",
      [["marcus"], ["best man"], ["lisbon"]], [],
      "friend's wedding and user's role"),
    C("My daughter is 16 and just got her learner's permit. She's a nervous driver. Any tips for me "
      "teaching her?",
      [["daughter", "16"]], [],
      "daughter's age"),
    C("Our neighbor's kid Tyler mows our lawn every week and he's saving up for college. How much should I "
      "tip him at the end of summer?",
      [["tyler"]], [],
      "neighbor's kid as a relation"),
    C("My grandpa is 91, lives alone in Tennessee and refuses to use a cell phone. What are easy ways to "
      "stay in touch?",
      [["grand", "91"], ["tennessee"]], [],
      "grandparent's age and place"),
    C("My partner Alex is trans and uses they/them pronouns. What's a thoughtful gift for their first Pride?",
      [["alex", "trans"], ["pronoun"]], [],
      "partner's identity and pronouns"),

    # 9. nothing to remember
    C("What's the difference between a Roth IRA and a traditional IRA?",
      [], ["roth", "ira"],
      "pure question"),
    C("good morning!! hope ur having a good day 😊",
      [], ["morning"],
      "greeting"),
    C("that didn't work, still getting the same error",
      [], ["error"],
      "reaction to previous answer"),
    C("Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\n    import pandas as pd\n"
      "ModuleNotFoundError: No module named 'pandas'\nwhy is this happening",
      [], ["pandas", "modulenotfound"],
      "log paste with question"),
    C("perfect thanks, that's exactly what I needed 🙏",
      [], ["perfect", "thank"],
      "thanks reaction"),
    C("If I ever got a dog, would a corgi or a beagle be better for apartment living?",
      [], ["corgi", "beagle"],
      "hypothetical pet"),
    C("How tall is Taylor Swift and is it true she's allergic to cats?",
      [], ["taylor", "swift", "allerg"],
      "famous person question"),

    # 10. trigger look-alikes
    C("my unit test has assert msg == 'I am allergic to peanuts' and it fails with a trailing space, how do "
      "i strip it in python",
      [], ["peanut", "allerg"],
      "allergy phrase inside test string"),
    C("How do you say 'I'm vegan and I don't eat eggs' in French?",
      [], ["vegan", "egg"],
      "translation request with first-person text"),
    C("My character in my novel says 'I'm a widow with three sons and a farm in Iowa' — does that line "
      "sound natural for 1890s dialogue?",
      [["novel"]], ["widow", "iowa", "farm"],
      "fictional character's line; only the novel is real"),
    C("Translate to Spanish for my students: 'My name is Anna, I have two cats and I live in London.'",
      [], ["anna", "london"],
      "translation of quoted self-description"),
    C("Is 'I'm diabetic' or 'I have diabetes' the more respectful way to write it in a patient brochure? "
      "I'm editing one for our clinic.",
      [["clinic"]], ["diabetic"],
      "quoted phrase about a condition; user works at clinic"),
    C("My git commit message says 'I hate Mondays and I'm moving to Seattle' as a joke, how do I amend it "
      "before pushing?",
      [], ["seattle", "monday"],
      "joke commit message is not a fact"),
]
# fmt: on
