"""The wording families of round 28: requests typed as orders, note-taking openers, and words that only
look like a cue.

Round 27 left four things noticed: a task set without "can you" ("plan a party for my daughter Mia")
was stored as something the user mentioned; "Make a note: I'm allergic to nuts" stored the allergy twice;
"role-play" said of the user's own work ended the message; "gift ideas for my bf Marcus, …" kept the
request with the fact. Probe 14 added two more: words in quotes ("how do you say 'I'm vegan' in French?")
stored as the user's, and a list typed line by line lost its items. Same record as :mod:`evaluation.wording`;
all cases were written before the rules,
DEV used while writing them, HELD-OUT only measured.
"""

from __future__ import annotations

from evaluation.wording_family import Family

TYPED_FAMILIES: tuple[Family, ...] = (
    Family("chat: a task set without asking", "dev", chat=(
        ("plan a party for my daughter Mia", ("daughter is named Mia",), ("lan a party",)),
        ("Write a cover letter for a nursing job at St. Mary's hospital", (), ("cover letter",)),
        ("give me a 3-day workout plan, I have bad knees", ("User has bad knees",), ("workout",)),
        ("Suggest a name for my new kitten, she's grey with white paws", ("kitten", "grey with white paws"),
         ("uggest",)),
        ("Recommend some podcasts about history for my commute", (), ("podcasts",)),
    )),
    Family("chat: a task set without asking (held out)", "heldout", chat=(
        ("Book a table for four at an Italian place near me, my wife is celiac", ("wife is celiac",),
         ("ook a table",)),
        ("create a budget spreadsheet for me, I earn about 3200 a month after tax", ("3200",), ("spreadsheet",)),
        ("make a playlist for my son Theo's 10th birthday party", ("Theo",), ("playlist",)),
        ("List some easy houseplants, my flat gets almost no sunlight", ("sunlight",), ("houseplants",)),
    )),
    Family("chat: a note-taking opener is not what was said", "dev", chat=(
        ("Make a note: I'm allergic to nuts", ("User is allergic to nuts",), ("Make a note", "mentioned that")),
        ("note to self: my passport expires in March 2027", ("passport expires in March 2027",), ("to self",)),
        ("For the record, I'm vegetarian", ("User is vegetarian",), ("for the record", "For the record")),
        ("Jot this down: I take my coffee black", ("coffee black",), ("Jot",)),
        ("Please note that my son Eli has a peanut allergy", ("son Eli has a peanut allergy",), ("note that",)),
    )),
    Family("chat: a note-taking opener is not what was said (held out)", "heldout", chat=(
        ("Just so you know, my daughter Ines is starting university in Porto in September", ("Porto",),
         ("so you know",)),
        ("for future reference I'm left-handed", ("left-handed",), ("future reference",)),
        ("Keep in mind that I don't drive, so I take the bus everywhere", ("drive",),
         ("Keep in mind", "keep in mind")),
        ("Write this down: my blood type is O negative", ("O negative",), ("Write this", "write this")),
        ("Add to my notes: my landlord's name is Mr. Haddad", ("Haddad",), ("Add to", "add to")),
    )),
    Family("chat: role-play as the user's own work or play", "dev", chat=(
        ("I work as a drama therapist and use role-play with my clients", ("drama therapist", "role-play"), ()),
        ("I'm a big fan of role-playing games like Baldur's Gate", ("role-playing games",), ()),
        ("my son does role-play at his drama club on Saturdays", ("drama club",), ()),
    )),
    Family("chat: role-play as the user's own work or play (held out)", "heldout", chat=(
        ("I run a weekly role-playing group for teenagers at the library", ("library",), ()),
        ("My job involves role-playing difficult conversations with new managers", ("new managers",), ()),
        ("As a sales trainer, I use role-play exercises every day", ("sales trainer",), ()),
    )),
    Family("chat: ideas asked for someone named", "dev", chat=(
        ("gift ideas for my bf Marcus, we just hit 2 years together", ("Marcus", "2 years"), ("ideas",)),
        ("birthday ideas for my wife Ana, she turns 40 in May", ("Ana turns 40 in May",), ("ideas",)),
        ("Recipe ideas for my dad, he just got diagnosed with celiac", ("dad", "celiac"), ("ideas",)),
    )),
    Family("chat: ideas asked for someone named (held out)", "heldout", chat=(
        ("Date night ideas for me and my husband Kofi, we live in Leeds and have a baby", ("Kofi",), ("ideas",)),
        ("costume ideas for my twins, they're 5 and obsessed with dinosaurs", ("dinosaurs",), ("ideas",)),
        ("names for my new puppy? he's a black lab", ("black lab",), ("names for",)),
        ("Suggestions for my mum's 60th, she loves gardening and opera", ("gardening",), ("uggestions",)),
    )),
    Family("chat: words quoted are not the user telling", "dev", chat=(
        ("What's the Spanish for 'I have two brothers'?", (), ("two brothers",)),
        ("my error log says 'I cannot find the file' every time I run the script", (), ("cannot",)),
        ("Is it 'my wife and I' or 'my wife and me' in a wedding speech?", (), ("wife",)),
        ("My favourite song is 'I Will Survive'", ("I Will Survive",), ()),
        ("I told my manager 'I quit' this morning", ("quit",), ()),
    )),
    Family("chat: words quoted are not the user telling (held out)", "heldout", chat=(
        ("how do you write 'I live in Madrid' in German", (), ("Madrid",)),
        ("The test fixture has name='I own a boat' and the parser chokes on it", (), ("boat",)),
        ("My sister keeps texting me 'I'm pregnant!' as a prank", (), ("pregnant",)),
        ('which sounds better for a cover letter: "I am a passionate engineer" or "I love solving problems"?', (),
         ("passionate",)),
        ("We walked down the aisle to 'We Are Young' by fun.", ("We Are Young",), ()),
    )),
    Family("chat: a list typed line by line", "dev", chat=(
        ("About me:\n- 34, software engineer\n- live in Austin with my wife\n- two kids, 5 and 8",
         ("software engineer", "Austin"), ("About User",)),
        ("Things I can't eat:\n1. gluten\n2. dairy\n3. anything too spicy", ("gluten", "dairy"), ()),
        ("my week:\n- mon: dentist\n- wed: flying to Berlin for work\n- fri: my brother's wedding", ("Berlin",), ()),
    )),
    Family("chat: a list typed line by line (held out)", "heldout", chat=(
        ("Quick facts for you:\n• I'm vegetarian\n• I run marathons\n• my cat is called Pixel",
         ("vegetarian", "marathons", "Pixel"), ()),
        ("Our pets:\n- Rex (dog, 9 years old)\n- Luna (cat)\n- two goldfish", ("Rex",), ()),
        ("Meds I take daily:\n* metformin 500mg\n* lisinopril", ("metformin", "lisinopril"), ()),
        ("Goals for 2027:\n1) run a half marathon\n2) save 10k\n3) learn Spanish", ("half marathon",), ()),
    )),
    Family("chat: a list whose header says what the user does with each item", "dev", chat=(
        ("Foods I avoid:\n- pork\n- shellfish", ("User avoids pork", "User avoids shellfish"), ()),
        ("Languages I speak:\n1. English\n2. Portuguese\n3. a bit of Japanese", ("User speaks English",), ()),
        ("Bands I love:\n* Radiohead\n* Bjork", ("User loves Radiohead",), ()),
    )),
    Family("chat: a list whose header says what the user does with each item (held out)", "heldout", chat=(
        ("Things my son is allergic to:\n- eggs\n- kiwi", ("son is allergic to eggs",), ()),
        ("Sports I play:\n- tennis\n- squash", ("User plays tennis",), ()),
        ("Shows we watched this year:\n- Severance\n- Shogun", ("Severance",), ("Shows",)),
        ("Meds I take:\n* insulin\n* metformin", ("User takes insulin",), ()),
    )),
    Family("chat: an answer that corrects whom the question named", "dev", chat=(
        ("How old is your son? >> my daughter, she's 7", ("daughter",), ("your son",)),
        ("What does your wife do for work? >> my partner Alex is a nurse", ("Alex is a nurse",), ("your wife",)),
        ("Is your sister coming to the wedding? >> my brother is, yes", ("brother",), ("your sister",)),
    )),
    Family("chat: an answer that corrects whom the question named (held out)", "heldout", chat=(
        ("When is your brother's birthday? >> my sister's, it's on 3 March", ("3 March",), ("your brother",)),
        ("Does your mom live nearby? >> my dad does, about ten minutes away", ("dad",), ("your mom",)),
        ("How long have you had your cat? >> my dog Rufus, about 5 years", ("Rufus",), ("your cat",)),
    )),
    Family("chat: text-speak and shouting spelled out", "dev", chat=(
        ("IM SO DONE WITH MY LANDLORD HE RAISED THE RENT AGAIN TO 1800", ("1800",), ("MY LANDLORD", "User is SO")),
        ("my daughter has her recital tmrw and she's nervous", ("9 May 2023",), ("tmrw",)),
        ("ngl i think im lactose intolerant lol every time i have milk i feel awful", ("lactose intolerant",),
         ("lol", "ngl")),
        ("my bday is 14 feb lol", ("birthday",), ("lol", "bday")),
    )),
    Family("chat: text-speak and shouting spelled out (held out)", "heldout", chat=(
        ("MY SON JUST GOT INTO OXFORD!!!", ("son just got into",), ("MY SON",)),
        ("moving to denver nxt week lmao still havent packed", ("denver",), ("lmao", "nxt")),
        ("had my first driving lesson yday, it went ok haha", ("driving lesson",), ("haha", "yday")),
        ("my hubby's bday is next sat tbh i have no gift idea", ("birthday",), ("tbh", "bday")),
    )),
)  # fmt: skip
