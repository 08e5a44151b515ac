"""Two-person conversations for the 'both talked of it' attribution probe (round 42), written blind for it:
before any rule read them and without reading the rules or the probe that scores them.

In each conversation both people talk about the same objects, places, events or hobbies, but in different
roles (one hosted the quiz night and the other's team played in it, one set the routes and the other climbed
them, one plans what the other already did). Answerable questions ask, by name, what a person's own words
answer, often with a verb that person did not use or with nouns the other person said too. Unanswerable
questions ask the same kind of thing of the other person, whose own words do not answer it (they asked about
it, reacted to it, only plan it, or did something different with it), as adversarial QA swaps a name.
DEV holds conversations 1-8 and HELD 9-16; the two splits share no topics.
"""

from __future__ import annotations

from evaluation.attribution_cases import C, Conversation

# fmt: off
DEV: list[Conversation] = [
    C(("Ngozi", "Rafael"), [
        ("2024-02-09", [
            ("Ngozi", "Hi Rafael! How was your week?"),
            ("Rafael", "Long. My car died on the ring road on Tuesday, the alternator apparently. I had to wait two "
                       "hours for the tow truck in the rain."),
            ("Ngozi", "Ugh, that's awful. Is it fixed?"),
            ("Rafael", "The garage says Friday. I'm taking the bus until then, which honestly isn't that bad, I've "
                       "been reading on it."),
            ("Ngozi", "Well, I have news! I'm hosting a charity quiz night at the Fox and Anchor on the 24th, all the "
                      "money goes to the children's hospice where my aunt works. I wrote all eighty questions "
                      "myself."),
            ("Rafael", "Eighty! That's amazing. Can anyone come?"),
            ("Ngozi", "Teams of up to six, ten pounds a head. You should bring people."),
            ("Rafael", "I'll ask my brother Luis and his flatmates, they love trivia."),
            ("Ngozi", "Perfect. Just no phones, I'm strict about that."),
            ("Rafael", "Ha, noted."),
        ]),
        ("2024-02-26", [
            ("Rafael", "Ngozi, the quiz was brilliant. Our team came third, we'd have won if any of us knew anything "
                       "about 90s pop."),
            ("Ngozi", "Thank you!! We raised 1,340 pounds in the end, way more than I expected."),
            ("Rafael", "Wow. Which round did people hate the most?"),
            ("Ngozi", "The picture round of famous bridges, everyone groaned. I'm keeping it for next year though."),
            ("Rafael", "Luis got nearly all the bridges actually, he's an engineer. He wants a rematch."),
            ("Ngozi", "Tell him there's a rematch in October, I'm already planning a Halloween edition."),
            ("Rafael", "Count us in. By the way, the car is back. They replaced the alternator and the battery, cost "
                       "me almost 600."),
            ("Ngozi", "Ouch. At least it's sorted."),
        ]),
        ("2024-04-03", [
            ("Ngozi", "Guess what, I bought a car! A little second-hand hatchback, green."),
            ("Rafael", "Finally! No more buses for you. What made you decide?"),
            ("Ngozi", "My new job is out in the business park and the bus takes an hour each way."),
            ("Rafael", "New job? Since when?"),
            ("Ngozi", "I started in March, I'm a data analyst at a logistics company. It's good so far, my manager is "
                      "lovely."),
            ("Rafael", "Congrats! I'm thinking of selling mine honestly, after the alternator thing I don't trust "
                       "it."),
            ("Ngozi", "Sell it to someone who likes fixing stuff."),
            ("Rafael", "That's the plan, I'll put it online in May."),
        ]),
    ], answerable=[
        "Where did Ngozi host the charity quiz night?",
        "How did Rafael's team do at the quiz night?",
        "What happened to Rafael's car on the ring road?",
        "Who did Ngozi's quiz night raise money for?",
        "Why did Ngozi buy a car?",
        "When does Rafael plan to sell his car?",
    ], unanswerable=[
        "How did Ngozi's team do at the quiz night?",
        "What happened to Ngozi's car on the ring road?",
        "Where did Rafael host the charity quiz night?",
        "Why did Rafael buy a car?",
        "When did Rafael start his new job?",
        "How much did Ngozi pay to fix her car's alternator?",
    ]),
    C(("Siddharth", "Ingrid"), [
        ("2024-05-14", [
            ("Ingrid", "Siddharth! Long time. Are you still working at the climbing gym?"),
            ("Siddharth", "Yep, three days a week now. I set the new routes every Monday before it opens, which is my "
                          "favourite part of the job."),
            ("Ingrid", "That's so cool. I actually went bouldering for the first time on Saturday, at that place by "
                       "the canal."),
            ("Siddharth", "Vertical Wharf? That's ours! Why didn't you say hi?"),
            ("Ingrid", "I had no idea that was your gym! I only managed the easy yellow problems, my forearms were "
                       "jelly after twenty minutes."),
            ("Siddharth", "Everyone's are at first. Did you rent shoes?"),
            ("Ingrid", "Yes and they were so tight. I'm thinking of buying my own pair."),
            ("Siddharth", "Get them a half size bigger than the shop tells you, trust me."),
            ("Ingrid", "Noted! What else have you been up to?"),
            ("Siddharth", "My parents visited from Pune for two weeks. I took them to the coast and my dad swam in "
                          "the sea in April, mad man."),
        ]),
        ("2024-06-20", [
            ("Siddharth", "Bad news, I tore a ligament in my ring finger. I fell awkwardly off a crimpy route I was "
                          "testing."),
            ("Ingrid", "Oh no! How long are you out?"),
            ("Siddharth", "Physio says six weeks no climbing. I can still set routes from the ladder but I'm not "
                          "allowed to test them."),
            ("Ingrid", "That's so frustrating. I bought the shoes, by the way, a half size bigger like you said."),
            ("Siddharth", "Good! How are they?"),
            ("Ingrid", "Comfy. I've been going twice a week with my colleague Margit, and I did my first blue problem "
                       "on Thursday."),
            ("Siddharth", "Blue already? That's amazing, that's fast progress."),
            ("Ingrid", "My fingers are sore all the time though, should I worry?"),
            ("Siddharth", "Tape them and rest between sessions, you don't want what I've got."),
        ]),
        ("2024-08-11", [
            ("Ingrid", "How's the finger?"),
            ("Siddharth", "Healed! I did my first proper session last week and climbed a purple, felt great."),
            ("Ingrid", "Yay! I'm entering the beginner bouldering comp at your gym in September, is that crazy?"),
            ("Siddharth", "Not at all. I'm setting the qualifier problems for it, so I can't give you hints, haha."),
            ("Ingrid", "Boo. Will you be judging too?"),
            ("Siddharth", "No, the judges come from the regional association. I'll be on the mic doing the commentary "
                          "though."),
            ("Ingrid", "Oh god, now I'm nervous."),
            ("Siddharth", "You'll be fine. Just don't fall off the top like I did."),
        ]),
    ], answerable=[
        "What does Siddharth do at the climbing gym every Monday?",
        "How did Siddharth injure his finger?",
        "Who does Ingrid go climbing with?",
        "How is Siddharth involved in the beginner bouldering competition?",
        "Where did Ingrid go bouldering for the first time?",
        "Who visited Siddharth from Pune?",
    ], unanswerable=[
        "How did Ingrid injure her finger?",
        "Who does Siddharth go climbing with?",
        "When did Siddharth go bouldering for the first time?",
        "What does Ingrid do at the climbing gym every Monday?",
        "Who visited Ingrid from Pune?",
    ]),
    C(("Mei-Lin", "Bastian"), [
        ("2024-09-03", [
            ("Bastian", "Hey Mei-Lin, quick question since you're the music expert. My daughter Romy wants piano "
                        "lessons, do you take beginners?"),
            ("Mei-Lin", "I do! I teach kids from six up, Tuesday and Thursday afternoons at my flat. How old is "
                        "Romy?"),
            ("Bastian", "She just turned seven. She's been banging on the keyboard at her grandma's for months."),
            ("Mei-Lin", "Perfect age. Does she have anything to practise on at home?"),
            ("Bastian", "Not yet, I was going to look for a used digital piano."),
            ("Mei-Lin", "Get one with weighted keys, even a cheap one. I started on a terrible plastic keyboard and "
                        "it took me ages to unlearn the habits."),
            ("Bastian", "Weighted keys, got it. How long have you been teaching?"),
            ("Mei-Lin", "Eleven years, since I finished conservatory in Vienna."),
            ("Bastian", "Wow. Ok, let's try Thursday then."),
            ("Mei-Lin", "Thursday at four it is!"),
        ]),
        ("2024-10-15", [
            ("Bastian", "So I bought a used digital piano off a guy in the next village, 250 euros, weighted keys!"),
            ("Mei-Lin", "Great find! Romy practised her scales really well this week, I could tell."),
            ("Bastian", "She plays every evening after dinner, even without being asked. I'm shocked."),
            ("Mei-Lin", "Honestly, she's one of my most motivated students."),
            ("Bastian", "I've been sneaking a go on it too, I'm teaching myself from YouTube videos."),
            ("Mei-Lin", "Ha! What are you learning?"),
            ("Bastian", "I'm trying to get the opening of Clair de Lune, it's slow going."),
            ("Mei-Lin", "That's a lovely piece. I'm playing it at the autumn recital at the library, actually, on "
                        "November 9th."),
            ("Bastian", "No way, we'll come!"),
            ("Mei-Lin", "Romy could play a short piece too if she wants, I'm letting all my students do one."),
        ]),
        ("2024-11-12", [
            ("Bastian", "Mei-Lin, that recital was magical. Romy hasn't stopped talking about it."),
            ("Mei-Lin", "She did so well! Her little minuet was perfect."),
            ("Bastian", "She was so nervous beforehand, she cried in the car."),
            ("Mei-Lin", "You'd never know. How about you, still working on Clair de Lune?"),
            ("Bastian", "Gave up at bar twelve. I think I need a real teacher, haha."),
            ("Mei-Lin", "I have a Sunday slot for adults, just saying."),
            ("Bastian", "Tempting. Did you get nervous playing it?"),
            ("Mei-Lin", "A bit. My hands were freezing because the library heating broke, so I played it slower than "
                        "I wanted."),
        ]),
    ], answerable=[
        "How much did Bastian pay for the digital piano?",
        "Where did Mei-Lin study music?",
        "How is Bastian learning to play piano?",
        "What did Mei-Lin perform at the autumn recital?",
        "Why were Mei-Lin's hands cold at the recital?",
        "How old is Bastian's daughter?",
    ], unanswerable=[
        "What did Bastian perform at the autumn recital?",
        "How much did Mei-Lin pay for her digital piano?",
        "How long has Bastian been teaching piano?",
        "Where did Bastian study music?",
        "How old is Mei-Lin's daughter?",
    ]),
    C(("Chiara", "Tariq"), [
        ("2024-04-22", [
            ("Chiara", "Tariq! The bees arrived! Two hives, they're at the bottom of my parents' orchard."),
            ("Tariq", "You actually did it! Weren't you scared when you opened the box?"),
            ("Chiara", "Terrified, but a lady from the beekeeping association came to help me put them in. They were "
                       "calmer than I expected."),
            ("Tariq", "I got stung last week, by the way, on my eyelid. Just walking past the lavender in the park."),
            ("Chiara", "Oh no, your eyelid!"),
            ("Tariq", "My eye swelled shut for a day, I looked like a boxer. I had to wear sunglasses to a client "
                      "meeting."),
            ("Chiara", "Poor you. Are you allergic?"),
            ("Tariq", "The pharmacist said no, just a strong reaction. I took antihistamines."),
            ("Chiara", "Good. The hives don't even have names yet, do you want to name one?"),
            ("Tariq", "Call one Queen Latifah, obviously."),
        ]),
        ("2024-07-30", [
            ("Tariq", "I was at the Saturday farmers market and bought a jar of wildflower honey from a stall with a "
                      "hand-drawn bee on the label. Eight euros! Is that normal?"),
            ("Chiara", "That's pretty normal for raw honey, honestly. I'm hoping to sell at that market next summer."),
            ("Tariq", "Did you get any honey this year?"),
            ("Chiara", "First harvest two weeks ago, about nine kilos from the Queen Latifah hive. The other one is "
                       "weaker so I left theirs alone."),
            ("Tariq", "Nine kilos! What are you doing with it all?"),
            ("Chiara", "Giving jars to family and the neighbours, and I'm making a honey cake for my nonna's 90th."),
            ("Tariq", "90! Wish her happy birthday from me."),
            ("Chiara", "I will. Do you want a jar?"),
            ("Tariq", "Of course, I'll compare it to the market one."),
        ]),
        ("2024-09-18", [
            ("Tariq", "Verdict: your honey is better than the market one. Darker and less sweet."),
            ("Chiara", "Ha, you're biased. The dark colour comes from the chestnut trees near the orchard."),
            ("Tariq", "I've been reading about beekeeping since you started, I might take the association's course in "
                      "spring."),
            ("Chiara", "Do it! It's six Saturday mornings, I did it last winter."),
            ("Tariq", "Do I need to buy the suit beforehand?"),
            ("Chiara", "No, they lend you one. I bought mine second-hand after the course."),
            ("Tariq", "How's the weaker hive?"),
            ("Chiara", "I merged it into the strong one last week, the queen had disappeared."),
        ]),
    ], answerable=[
        "Where does Chiara keep her beehives?",
        "Where was Tariq stung?",
        "How much honey did Chiara collect from the Queen Latifah hive?",
        "How much did Tariq pay for the jar of honey at the farmers market?",
        "Why is Chiara's honey dark?",
        "What did Chiara do with the weaker hive?",
    ], unanswerable=[
        "Where was Chiara stung?",
        "How much did Chiara pay for a jar of honey at the farmers market?",
        "When did Tariq take the beekeeping association's course?",
        "Where does Tariq keep his beehives?",
        "Who is Tariq making a honey cake for?",
        "Where did Tariq buy his beekeeping suit?",
    ]),
    C(("Farida", "Niall"), [
        ("2024-06-05", [
            ("Farida", "Niall, I got the job! The museum in Edinburgh offered me the assistant curator role."),
            ("Niall", "No way! Congratulations! When do you move?"),
            ("Farida", "Start date is July 1st, so I'm flat hunting from here, which is a nightmare. Everything in "
                       "Leith gets taken in a day."),
            ("Niall", "I was in Edinburgh for the Fringe two years ago, I loved it. Stayed in a tiny room above a "
                      "chip shop."),
            ("Farida", "Ha, that sounds very Fringe."),
            ("Niall", "What will you be curating?"),
            ("Farida", "Mostly the textiles collection. They've got eighteenth-century embroidered waistcoats I'm "
                       "obsessed with."),
            ("Niall", "Only you would be obsessed with waistcoats. I'm so happy for you."),
        ]),
        ("2024-08-14", [
            ("Niall", "How's Edinburgh life?"),
            ("Farida", "I found a flat in Leith in the end, fourth floor, no lift. My calves are enormous now."),
            ("Niall", "Haha. Guess what, I'm coming up for the Fringe again next week! My friend Eoin is doing a "
                      "stand-up show."),
            ("Farida", "Amazing! What's his show about?"),
            ("Niall", "His divorce, apparently. It's called 'Half of Everything'. I'm running his flyering, so I'll "
                      "be on the Royal Mile every day handing out leaflets."),
            ("Farida", "I'll come and see it! Where's it on?"),
            ("Niall", "A basement bar on the Cowgate, 9:40pm. Tiny venue, forty seats."),
            ("Farida", "Let's get dinner one night too, I know a great Sri Lankan place near the museum."),
            ("Niall", "Deal."),
        ]),
        ("2024-08-29", [
            ("Farida", "I'm still laughing about Eoin's bit about the blender."),
            ("Niall", "He's so pleased you came. Four sold-out nights by the end!"),
            ("Farida", "Well deserved. How was the flyering?"),
            ("Niall", "Brutal. It rained six of the ten days and I lost my voice. But I'd do it again."),
            ("Farida", "You should write your own show next year."),
            ("Niall", "Ha, maybe. How's the museum?"),
            ("Farida", "Busy! I'm putting together a small waistcoat exhibition for the spring, my first show as a "
                       "curator."),
            ("Niall", "You and your waistcoats. I'll fly up for the opening."),
        ]),
    ], answerable=[
        "Why did Farida move to Edinburgh?",
        "Where did Niall stay on his first trip to the Fringe?",
        "Where is Farida's flat?",
        "How did Niall help with Eoin's show?",
        "What is Farida organising for the spring?",
        "What happened to Niall's voice at the Fringe?",
    ], unanswerable=[
        "Why did Niall move to Edinburgh?",
        "Where did Farida stay on her first trip to the Fringe?",
        "What is Niall's stand-up show about?",
        "How did Farida help with Eoin's show?",
        "What is Niall curating at the museum?",
    ]),
    C(("Leilani", "Joaquin"), [
        ("2025-01-12", [
            ("Leilani", "Joaquin! My cousin Makana is getting married in Oaxaca in March and she's looking for a "
                        "photographer. I gave her your name, hope that's ok."),
            ("Joaquin", "More than ok, thank you! I've never shot a wedding in Mexico. What's the venue?"),
            ("Leilani", "An old hacienda outside the city. I'm the maid of honour so I'll be running around like "
                        "crazy."),
            ("Joaquin", "Maid of honour! Are you giving a speech?"),
            ("Leilani", "Yes and I'm already panicking. I've written three drafts."),
            ("Joaquin", "You'll be great. I've got the Valentine's rush now anyway, three engagement shoots in "
                        "February."),
            ("Leilani", "Busy man. Have you been to Oaxaca?"),
            ("Joaquin", "Once, as a teenager, with my grandparents. I mostly remember the mole."),
        ]),
        ("2025-03-24", [
            ("Leilani", "I'm back! Still recovering from the wedding. How are the photos looking?"),
            ("Joaquin", "Really good, I've edited about half. The golden hour shots in the agave field came out "
                        "stunning."),
            ("Leilani", "Can't wait. My speech went ok, right? I cried in the middle."),
            ("Joaquin", "Everyone cried, it was perfect. The story about Makana and the surfboard killed."),
            ("Leilani", "Honestly the highlight for me was the calenda, the parade through the streets with the giant "
                        "puppets and the band."),
            ("Joaquin", "That was hard to shoot! I walked backwards for forty minutes, tripped over a curb and "
                        "cracked my 50mm lens."),
            ("Leilani", "Noooo! Is it fixable?"),
            ("Joaquin", "Insurance is covering a new one, thankfully."),
            ("Leilani", "Phew. Did you try the mole this time?"),
            ("Joaquin", "Three kinds. The black one is still the best."),
        ]),
        ("2025-04-30", [
            ("Joaquin", "Sent the full gallery to Makana yesterday, 640 photos."),
            ("Leilani", "She sent me the link, I'm in tears again. The one of me fixing her veil!"),
            ("Joaquin", "That's one of my favourites. Are you going to frame any?"),
            ("Leilani", "I'm printing the agave field one for my living room. Hey, my friend Kiele just got engaged, "
                        "can I pass on your number?"),
            ("Joaquin", "Please do. I'm booked until August though."),
            ("Leilani", "She's thinking next spring, so perfect."),
        ]),
    ], answerable=[
        "What role did Leilani have at Makana's wedding?",
        "What happened to Joaquin's lens?",
        "When did Joaquin first visit Oaxaca?",
        "How many photos did Joaquin deliver to Makana?",
        "What was Leilani's favourite part of the wedding?",
        "Which wedding photo is Leilani printing for her living room?",
    ], unanswerable=[
        "When did Leilani first visit Oaxaca?",
        "What happened to Leilani's lens?",
        "Which kind of mole does Leilani like best?",
        "Which wedding photo is Joaquin printing for his living room?",
        "What story did Joaquin tell in his speech at the wedding?",
        "How many engagement shoots does Leilani have in February?",
    ]),
    C(("Emeka", "Saoirse"), [
        ("2024-10-02", [
            ("Emeka", "Saoirse, I need a favour. I've finished the prototype of my board game and I need "
                      "playtesters."),
            ("Saoirse", "Ooh, the market trader one? I'd love to! What's it called now?"),
            ("Emeka", "'Balogun', after the market in Lagos. Players are traders bargaining for fabric and trying to "
                      "fill orders."),
            ("Saoirse", "Love it. I could bring it to my Thursday game group at the café, there are usually eight of "
                        "us."),
            ("Emeka", "That would be perfect. Warning, the rulebook is twelve pages and definitely has mistakes."),
            ("Saoirse", "We'll find them. I spent all of last weekend painting miniatures for our dungeon campaign, "
                        "so I'm in full nerd mode."),
            ("Emeka", "How many have you painted?"),
            ("Saoirse", "Fourteen goblins and one very ugly dragon."),
            ("Emeka", "Ha! Send me a photo."),
        ]),
        ("2024-10-18", [
            ("Saoirse", "Report from game night: we played Balogun twice. People loved the haggling but the second "
                        "game took three hours."),
            ("Emeka", "Three hours?! It's supposed to be ninety minutes."),
            ("Saoirse", "The end game drags. Once someone runs out of fabric tokens nobody can finish their orders."),
            ("Emeka", "That's really helpful. I'll add a market restock phase every round."),
            ("Saoirse", "Also my friend Rosaleen won both games by hoarding indigo cloth, that needs fixing."),
            ("Emeka", "Noted, I'll cap how many of one colour you can hold."),
            ("Saoirse", "How did you even get the cards printed?"),
            ("Emeka", "An online print-on-demand place, it cost me about 40 quid for two copies."),
            ("Saoirse", "Cheap! I keep meaning to design my own game, maybe this is the push."),
        ]),
        ("2025-01-20", [
            ("Emeka", "Big news, I'm taking Balogun to the UK Games Expo in Birmingham in May, there's a publisher "
                      "speed-dating event."),
            ("Saoirse", "Emeka! That's huge!"),
            ("Emeka", "It's version four now, games take about eighty minutes. The restock phase fixed it."),
            ("Saoirse", "I'm going to the Expo too! Just as a punter, I've booked a table for our group to play demos "
                        "on the Saturday."),
            ("Emeka", "Come and find me on Sunday for moral support."),
            ("Saoirse", "Obviously. I'll bring the goblins for luck."),
            ("Emeka", "How's your own game idea going?"),
            ("Saoirse", "Still just a notebook of ideas about lighthouse keepers. Slowly."),
        ]),
    ], answerable=[
        "What is Emeka's board game about?",
        "Where did Saoirse playtest Balogun?",
        "How many miniatures did Saoirse paint?",
        "How much did Emeka pay to print his game?",
        "Why is Emeka going to the UK Games Expo?",
        "What is Saoirse's game idea about?",
    ], unanswerable=[
        "What is the name of Saoirse's board game?",
        "How many miniatures did Emeka paint?",
        "Where does Emeka's Thursday game group meet?",
        "How did Saoirse get her cards printed?",
        "What did Saoirse change to fix the end game of Balogun?",
    ]),
    C(("Ravi", "Thandiwe"), [
        ("2024-07-08", [
            ("Thandiwe", "Hi Ravi, how was your weekend?"),
            ("Ravi", "Exhausting but good! I led my walking club up Pen y Fan on Saturday, fourteen people, and "
                     "nobody got lost."),
            ("Thandiwe", "No way, we were in the Brecon Beacons too! Camping with the kids near Talybont."),
            ("Ravi", "Small world! How was it?"),
            ("Thandiwe", "A disaster, honestly. It poured on Saturday night and our tent flooded, the kids' sleeping "
                         "bags were soaked through."),
            ("Ravi", "Oh no. What did you do?"),
            ("Thandiwe", "We slept in the car. Sipho thought it was the best adventure ever, Lindiwe cried until "
                         "2am."),
            ("Ravi", "Ha, the classic split. We got the rain on the way down, the path turned into a stream."),
            ("Thandiwe", "Did everyone make it down ok?"),
            ("Ravi", "One guy twisted his ankle on the last stretch, I had to strap it and carry his pack."),
        ]),
        ("2024-08-19", [
            ("Ravi", "Did you ever get a new tent?"),
            ("Thandiwe", "Yes! A proper tunnel tent with a bathtub groundsheet, it was on sale for 180 pounds. We "
                         "tested it in the garden."),
            ("Ravi", "Garden camping counts."),
            ("Thandiwe", "The kids insist it counts. Are you leading anything else this summer?"),
            ("Ravi", "A sunrise walk up Sugarloaf on the 14th of September. We start at 4am."),
            ("Thandiwe", "4am is madness. I'd come if it was at a human hour."),
            ("Ravi", "I'm also thinking of trying wild camping for the first time, on my own, maybe in October."),
            ("Thandiwe", "I did it in my twenties in the Cederberg, best night of my life, so many stars."),
            ("Ravi", "Any tips?"),
            ("Thandiwe", "Take more water than you think you need and tell someone where you are."),
        ]),
        ("2024-10-27", [
            ("Thandiwe", "So, did you do the wild camp?"),
            ("Ravi", "I did! Last weekend, by a lake in Snowdonia. Freezing, but I saw an owl at dusk."),
            ("Thandiwe", "An owl! Jealous."),
            ("Ravi", "Did the new tent survive the half-term trip?"),
            ("Thandiwe", "Perfectly, three nights in Pembrokeshire and not a drop inside. Lindiwe has forgiven "
                         "camping."),
            ("Ravi", "Ha, that's the real win."),
            ("Thandiwe", "What's next for the walking club?"),
            ("Ravi", "A Christmas pub walk, much more my pace now."),
        ]),
    ], answerable=[
        "What happened to Thandiwe's tent in the Brecon Beacons?",
        "How many people went on the walk Ravi organised up Pen y Fan?",
        "Where did Thandiwe go wild camping?",
        "Where did Ravi go wild camping?",
        "How much did Thandiwe's new tent cost?",
        "What did Ravi see while wild camping?",
    ], unanswerable=[
        "What happened to Ravi's tent in the Brecon Beacons?",
        "How many people did Thandiwe lead up Pen y Fan?",
        "Where did Ravi go wild camping in his twenties?",
        "Where did Ravi camp during the half-term trip?",
        "Whose ankle did Thandiwe strap on the way down?",
    ]),
]

HELD: list[Conversation] = [
    C(("Bjorn", "Amara"), [
        ("2025-05-10", [
            ("Bjorn", "Amara! The truck passed inspection, we're officially open!"),
            ("Amara", "Yesss! The waffle truck is real! Where are you parking first?"),
            ("Bjorn", "Weekdays outside the university library, weekends down at the harbour. Savoury waffles mostly, "
                      "the bestseller so far is the one with smoked salmon and dill."),
            ("Amara", "That sounds incredible. I'm so proud of you."),
            ("Bjorn", "Thanks. It's been two years of saving. How's the café plan going?"),
            ("Amara", "Slowly. I'm still looking at empty units, there's one near the station but the rent is "
                      "ridiculous. I want to do West African brunch, puff-puff, akara, that kind of thing."),
            ("Bjorn", "People would queue round the block for that."),
            ("Amara", "From your lips... I'm doing a pop-up at my church hall in June to test the menu."),
            ("Bjorn", "I'll be there."),
        ]),
        ("2025-06-22", [
            ("Amara", "I finally tried the truck at the harbour festival yesterday! The salmon waffle was as good as "
                      "you said."),
            ("Bjorn", "You came! I didn't see you, it was chaos. We sold out by three o'clock."),
            ("Amara", "The queue was enormous, I waited forty minutes. Worth it."),
            ("Bjorn", "Sorry! How was your pop-up?"),
            ("Amara", "We sold 120 plates, and my auntie's jollof was gone in an hour. But I burned my hand on the "
                      "fryer."),
            ("Bjorn", "Ouch, is it ok?"),
            ("Amara", "Blistered but healing. Lesson learned, long sleeves."),
            ("Bjorn", "I burned my forearm on the waffle iron in the first week, it's a rite of passage."),
            ("Amara", "Ha, the scar club."),
        ]),
        ("2025-09-04", [
            ("Bjorn", "Bad week. The truck's generator died on Tuesday and I lost a whole day of trade."),
            ("Amara", "Nooo. Can you fix it?"),
            ("Bjorn", "Had to buy a new one, 1,100. I'm slowly getting over it."),
            ("Amara", "I have good news to cheer you up: I signed the lease! Not the station one, a smaller place on "
                      "Mill Street."),
            ("Bjorn", "AMARA! When do you open?"),
            ("Amara", "November, if the builders behave. I'm calling it Ayo's, after my grandmother."),
            ("Bjorn", "Perfect name. Can I park the truck outside on opening day?"),
            ("Amara", "Only if you bring me a salmon waffle."),
        ]),
    ], answerable=[
        "Where does Bjorn park his food truck on weekdays?",
        "How long did Amara wait in the queue at the harbour festival?",
        "How did Amara burn her hand?",
        "What happened to Bjorn's generator?",
        "What is Amara naming her café?",
        "How many plates did Amara serve at her pop-up?",
    ], unanswerable=[
        "How many plates did Bjorn sell at the pop-up?",
        "How long did Bjorn wait in the queue at the harbour festival?",
        "What is Bjorn naming his café?",
        "Where does Amara park her food truck on weekdays?",
        "What happened to Amara's generator?",
    ]),
    C(("Wen", "Matteo"), [
        ("2024-03-18", [
            ("Wen", "Matteo, I got the commission! The youth centre on Harcourt Road wants a mural on the whole back "
                    "wall."),
            ("Matteo", "Wen, that's fantastic! How big is the wall?"),
            ("Wen", "About twelve metres by four. I'm designing it with the teenagers who go there, they want a "
                    "jungle with their own faces hidden in it."),
            ("Matteo", "Love that. Do you need volunteers? My company gives us two volunteer days a year and I "
                       "haven't used mine."),
            ("Wen", "Yes please! I need people to prime the wall before I start, probably in April."),
            ("Matteo", "Sign me up. I'm useless with a brush but I can roll paint."),
            ("Wen", "That's all priming is. How's the new flat?"),
            ("Matteo", "Still boxes everywhere. I painted the bedroom dark green last weekend, probably a mistake, it "
                       "feels like a cave."),
            ("Wen", "Dark green is very in! Add some warm lights."),
        ]),
        ("2024-04-21", [
            ("Matteo", "My arms still hurt from Saturday. How many coats of primer did we do in the end, three?"),
            ("Wen", "Three, and the wall drank every drop. Thanks for bringing your colleagues, five extra people "
                    "made all the difference."),
            ("Matteo", "They had fun! Sanna wants to come back and help with the actual painting."),
            ("Wen", "Tell her Saturdays in May. I've started sketching the outline, the kids picked a giant tapir for "
                    "the centre."),
            ("Matteo", "A tapir! Why a tapir?"),
            ("Wen", "One of the boys, Dami, is obsessed with them. He drew the first version himself."),
            ("Matteo", "That's wonderful. I took your advice with the lights, the bedroom looks cosy now."),
            ("Wen", "Told you!"),
        ]),
        ("2024-06-30", [
            ("Wen", "The mural is finished! The unveiling is Friday at 5, there'll be a DJ and food."),
            ("Matteo", "I'll be there. Was it hard at the end?"),
            ("Wen", "The last week I worked until midnight three nights in a row under floodlights, and it rained on "
                    "the tapir's face so I repainted it twice."),
            ("Matteo", "That's dedication. Dami must be thrilled."),
            ("Wen", "He cried, and I almost cried too. The centre wants me back to do the front entrance next year."),
            ("Matteo", "Amazing. Honestly, after priming that wall I'm thinking of taking a painting class."),
            ("Wen", "Do it! The art school does Tuesday evening classes for adults."),
            ("Matteo", "Maybe in the autumn, after my sister's wedding."),
        ]),
    ], answerable=[
        "Where is Wen's mural?",
        "How did Matteo help with the mural?",
        "What colour did Matteo paint his bedroom?",
        "Why did Wen put a tapir in the middle of the mural?",
        "Why did Wen repaint the tapir's face?",
        "When does Matteo plan to take a painting class?",
    ], unanswerable=[
        "What colour did Wen paint her bedroom?",
        "When did Wen take a painting class?",
        "How many volunteer days a year does Wen's company give?",
        "When is Wen's sister's wedding?",
        "Why did Matteo repaint the tapir's face?",
    ]),
    C(("Kwame", "Ilse"), [
        ("2024-06-02", [
            ("Kwame", "Ilse, I did it, I signed up for the Lake Ravensmere crossing in August. Three kilometres."),
            ("Ilse", "Kwame! You're going to swim three kilometres in open water? You hate cold water!"),
            ("Kwame", "I know, that's why I'm doing it. I'm raising money for the stroke unit that looked after my "
                      "dad."),
            ("Ilse", "That's lovely. How's he doing?"),
            ("Kwame", "Much better, walking with a stick now. He wants to watch from the shore."),
            ("Ilse", "Guess what, I'll be there too. The club I kayak with provides the safety boats for that swim "
                     "every year."),
            ("Kwame", "No way! So you'll be rescuing me."),
            ("Ilse", "Hopefully not! I'll be on the far side, by the buoys at the halfway point."),
            ("Kwame", "I've been training at the lido three mornings a week, I'm up to two kilometres."),
            ("Ilse", "Get a wetsuit soon, you need time to get used to it."),
        ]),
        ("2024-07-09", [
            ("Kwame", "Bought the wetsuit! Second-hand, 90 quid, fits like a sausage skin."),
            ("Ilse", "That's how it's meant to fit. Have you been in the lake yet?"),
            ("Kwame", "Twice. The first time I panicked when I couldn't see the bottom and had to float on my back "
                      "for a bit."),
            ("Ilse", "Totally normal. I capsized my kayak on that lake my first summer and came up screaming."),
            ("Kwame", "Ha! How did you get back in?"),
            ("Ilse", "I didn't, I swam it to the shore in total embarrassment."),
            ("Kwame", "Fundraising is at 1,800 now, and the target was 1,500!"),
            ("Ilse", "That's brilliant. I'll sponsor you, put me down for 30."),
        ]),
        ("2024-08-18", [
            ("Ilse", "You looked so strong out there! I waved at you at the halfway buoy."),
            ("Kwame", "I saw you! It gave me a boost. I finished in one hour twenty-two."),
            ("Ilse", "Amazing. We only had to pull out two swimmers, both with cramp."),
            ("Kwame", "I had a bit of cramp in my calf at the end but pushed through. Dad cried at the finish."),
            ("Ilse", "Of course he did. What was the final total?"),
            ("Kwame", "2,460 pounds for the stroke unit."),
            ("Ilse", "So proud of you. Next year you should try kayaking with us."),
            ("Kwame", "Maybe. I'm thinking of doing the five kilometres, actually."),
        ]),
    ], answerable=[
        "Why did Kwame take part in the Lake Ravensmere crossing?",
        "How did Ilse participate in the Lake Ravensmere crossing?",
        "How much did Kwame pay for his wetsuit?",
        "What did Ilse do after capsizing her kayak?",
        "How long did it take Kwame to finish the lake crossing?",
        "How much is Ilse sponsoring Kwame?",
    ], unanswerable=[
        "How long did it take Ilse to finish the lake crossing?",
        "What did Kwame do after capsizing his kayak?",
        "How much did Ilse pay for her wetsuit?",
        "Where does Ilse train three mornings a week?",
        "How is Ilse's dad doing?",
    ]),
    C(("Paulo", "Nadia"), [
        ("2024-11-04", [
            ("Nadia", "Paulo, are you still going to Montreal this month?"),
            ("Paulo", "Yes, the 18th to the 22nd. I'm presenting my paper on soil microbes at the ecology conference, "
                      "my first time speaking at an international one."),
            ("Nadia", "That's big! Nervous?"),
            ("Paulo", "Very. Twenty minutes plus questions, in front of people whose papers I cited."),
            ("Nadia", "You'll be great. Funny thing, I'll be in Montreal that same week! My sister lives there and "
                      "she got us tickets to a Canadiens game."),
            ("Paulo", "Seriously? We should meet up."),
            ("Nadia", "Yes! She lives in the Plateau, we could get bagels."),
            ("Paulo", "Deal. Have you ever been to an ice hockey game?"),
            ("Nadia", "Never, I don't even understand the rules. My sister's boyfriend is going to explain "
                      "everything."),
            ("Paulo", "I went to one in Boston as a student and spent the whole time watching the fights."),
        ]),
        ("2024-11-25", [
            ("Paulo", "Home and jet-lagged. Thanks for the bagel morning, that was the best part of the trip."),
            ("Nadia", "It was so fun seeing you there! How did the talk go in the end?"),
            ("Paulo", "Better than I feared. A professor from Utrecht came up afterwards and asked if I'd consider a "
                      "postdoc in her lab."),
            ("Nadia", "Paulo! That's incredible!"),
            ("Paulo", "Don't get excited yet, it's just a conversation. How was the hockey?"),
            ("Nadia", "Loud and amazing. The Canadiens lost in overtime and the whole arena groaned. I still don't "
                      "get offside."),
            ("Paulo", "Nobody does. Did you buy a jersey?"),
            ("Nadia", "My sister gave me her old one. Oh, and I lost my passport for three hours, it was in the wrong "
                      "coat pocket."),
            ("Paulo", "Classic. I almost missed my flight home because the taxi went to the wrong terminal."),
        ]),
        ("2025-02-14", [
            ("Nadia", "Any news from Utrecht?"),
            ("Paulo", "Yes! I had a video interview last week and she offered me the postdoc. Starting in September."),
            ("Nadia", "Congratulations!! You're moving to the Netherlands!"),
            ("Paulo", "I am. I need to learn Dutch, my first lesson is on Monday."),
            ("Nadia", "I'm jealous. I'm still thinking about moving to Montreal to be near my sister."),
            ("Paulo", "Would you? What about your job?"),
            ("Nadia", "I could transfer, my firm has an office there. But my French is terrible, so I'd have to fix "
                      "that first."),
            ("Paulo", "We can be miserable language learners together."),
        ]),
    ], answerable=[
        "What was Paulo's conference paper about?",
        "Who got Nadia tickets to the Canadiens game?",
        "What happened to Nadia's passport in Montreal?",
        "When is Paulo starting his postdoc?",
        "Where did Paulo watch ice hockey as a student?",
        "How did Nadia get her hockey jersey?",
    ], unanswerable=[
        "What was Nadia's conference paper about?",
        "What happened to Paulo's passport in Montreal?",
        "Why is Paulo thinking of moving to Montreal?",
        "Who got Paulo tickets to the Canadiens game?",
        "When is Nadia starting her postdoc?",
        "When is Nadia's first Dutch lesson?",
    ]),
    C(("Esperanza", "Hamid"), [
        ("2025-02-03", [
            ("Esperanza", "Hamid, I need extras for my short film shoot on the 15th. Are you free? There's pizza."),
            ("Hamid", "For pizza I'm always free. What's the film?"),
            ("Esperanza", "It's called 'The Last Laundrette', about an old woman who refuses to sell her laundrette "
                          "to developers. I wrote it last summer and finally got a small arts grant to shoot it."),
            ("Hamid", "Sounds great. What would I have to do?"),
            ("Esperanza", "Sit in the laundrette reading a newspaper while the dryers spin. Very glamorous."),
            ("Hamid", "I can do that. I've been an extra once before, in a car advert, I had to act surprised by a "
                      "hatchback fifteen times."),
            ("Esperanza", "Ha! Then you're a professional."),
            ("Hamid", "Who's playing the old woman?"),
            ("Esperanza", "My neighbour Dolores, she's 78 and used to do community theatre. She's perfect."),
        ]),
        ("2025-02-17", [
            ("Hamid", "That was a long day! My legs went numb on that bench."),
            ("Esperanza", "Thank you so much for staying till the end. We shot nineteen setups in one day, I'm "
                          "amazed."),
            ("Hamid", "Dolores was brilliant, she made the crew cry in that last scene."),
            ("Esperanza", "She nailed it in one take. The sound was the hard part, the real dryers were so loud we "
                          "had to turn them off and add the noise later."),
            ("Hamid", "I wondered why they kept stopping. Are you editing it yourself?"),
            ("Esperanza", "Yes, at night after work. I'm aiming to finish by April and send it to festivals."),
            ("Hamid", "I kept the newspaper from the set, by the way, as a souvenir."),
            ("Esperanza", "Ha, it's from 1994, a collector's item."),
        ]),
        ("2025-06-09", [
            ("Esperanza", "Hamid!!! The Last Laundrette got into the Bristol short film festival!"),
            ("Hamid", "WHAT! That's incredible, congratulations!"),
            ("Esperanza", "The screening is July 12th. Will you come? You're in it, after all, for about four "
                          "seconds."),
            ("Hamid", "My four seconds of fame, of course I'll come. Can I bring my mum?"),
            ("Esperanza", "Bring everyone. Dolores is getting her hair done for it."),
            ("Hamid", "It's inspired me, actually. I bought a second-hand camera and I'm filming my grandfather "
                      "telling stories about his village."),
            ("Esperanza", "Hamid, that's beautiful. Record the audio separately, trust me."),
            ("Hamid", "Lesson learned from the dryers."),
        ]),
    ], answerable=[
        "What is Esperanza's short film about?",
        "How did Esperanza fund her short film?",
        "What did Hamid have to do in the car advert?",
        "What did Hamid take home from the film set?",
        "Which festival accepted Esperanza's film?",
        "What is Hamid filming with his second-hand camera?",
    ], unanswerable=[
        "What did Esperanza have to do in the car advert?",
        "What is Esperanza filming with her second-hand camera?",
        "What did Esperanza take home from the film set as a souvenir?",
        "When did Hamid write 'The Last Laundrette'?",
        "When does Hamid plan to finish editing the film?",
    ]),
    C(("Arjun", "Sofie"), [
        ("2024-01-21", [
            ("Sofie", "Arjun! How did the club championship go?"),
            ("Arjun", "I won it! Six out of seven. I only drew the last game because I was too nervous to play for a "
                      "win."),
            ("Sofie", "That's amazing! Congratulations!"),
            ("Arjun", "Thanks. I've been in the club eight years and never finished higher than fourth."),
            ("Sofie", "I've been playing online a lot since Christmas, my rating's gone up two hundred points. But I "
                      "still lost to my grandpa on Boxing Day."),
            ("Arjun", "Ha, grandpas are dangerous. What does he play?"),
            ("Sofie", "Always the same opening, the King's Gambit, and I always fall for it."),
            ("Arjun", "You should come to the club on Wednesday, we've got a beginners' table."),
            ("Sofie", "Maybe! I'm scared of playing people face to face, online I can hide."),
        ]),
        ("2024-03-06", [
            ("Sofie", "I came to the club! Thanks for introducing me to everyone."),
            ("Arjun", "You did great, you beat Gerald, and he's been there for twenty years."),
            ("Sofie", "Only because he blundered his queen. My hands were shaking the whole time."),
            ("Arjun", "Everyone's do at first. The trophy's on my mantelpiece now, by the way, my wife made me move "
                      "it off the kitchen table."),
            ("Sofie", "Haha. Are you playing in any tournaments this spring?"),
            ("Arjun", "The county open in May. I'll be seeded quite low, it's a much stronger field."),
            ("Sofie", "I ordered a wooden chess set so I can practise at home, it arrives Friday."),
            ("Arjun", "Get a clock as well, it changes everything."),
        ]),
        ("2024-05-27", [
            ("Arjun", "County open done. Three and a half out of six, and I lost to a boy who was about twelve."),
            ("Sofie", "Ouch! Was he good?"),
            ("Arjun", "Scarily good. He played the King's Gambit against me, I thought of your grandpa."),
            ("Sofie", "Noooo. I beat Grandpa last weekend! With my new set, on his birthday."),
            ("Arjun", "Finally! How did you beat the gambit?"),
            ("Sofie", "I declined it, I'd been practising that line for weeks."),
            ("Arjun", "Smart. I'm going to spend the summer studying endgames."),
            ("Sofie", "And I'm entering the club's rapid tournament in July."),
        ]),
    ], answerable=[
        "How did Arjun do in the club championship?",
        "Who did Sofie lose to on Boxing Day?",
        "Where does Arjun keep his trophy?",
        "Who did Arjun lose to at the county open?",
        "How did Sofie beat her grandpa?",
        "How long has Arjun been a member of the chess club?",
    ], unanswerable=[
        "How did Sofie do in the club championship?",
        "Who did Arjun lose to on Boxing Day?",
        "How did Arjun beat his grandpa?",
        "How much has Arjun's online rating gone up?",
        "Who did Sofie lose to at the county open?",
        "When did Arjun order a wooden chess set?",
    ]),
    C(("Malika", "Declan"), [
        ("2024-10-09", [
            ("Malika", "Declan, you won't believe it. The storm on Sunday flooded our basement, 30 centimetres of "
                       "water."),
            ("Declan", "Oh no! Is everything ruined?"),
            ("Malika", "The boiler survived, but my old vinyl collection was in boxes on the floor. I lost about half "
                       "of it."),
            ("Declan", "That's heartbreaking. The same storm got us too, a bunch of slates blew off the roof and "
                       "water came through the bedroom ceiling."),
            ("Malika", "Both of us! Are you ok?"),
            ("Declan", "We put a bucket under it and slept on the sofa. The roofer can't come till next week."),
            ("Malika", "We had to hire a pump, 80 euros a day. My husband Yusuf spent all Monday bailing with a "
                       "bucket before it arrived."),
            ("Declan", "Poor Yusuf. Is your insurance covering it?"),
            ("Malika", "They're sending an assessor on Thursday. Fingers crossed."),
        ]),
        ("2024-10-28", [
            ("Declan", "Roof's fixed! It cost 1,400, and they found the gutter was blocked with a bird's nest too."),
            ("Malika", "A bird's nest! Good that they spotted it."),
            ("Declan", "How did the insurance assessor go?"),
            ("Malika", "They'll cover the pump and the drying out, but not the records, apparently vinyl counts as "
                       "'collectibles'. I'm furious."),
            ("Declan", "That's ridiculous. Which ones did you lose?"),
            ("Malika", "My dad's Oum Kalthoum records from Casablanca, the sleeves turned to mush."),
            ("Declan", "Oh Malika, I'm so sorry."),
            ("Malika", "I dried the discs themselves on the balcony, a few still play."),
            ("Declan", "Our ceiling needs replastering now, so the bedroom is a building site."),
        ]),
        ("2025-01-15", [
            ("Malika", "Update: we're installing a sump pump so it never happens again. And shelves, nothing on the "
                       "floor ever."),
            ("Declan", "Smart. Did you find replacements for the records?"),
            ("Malika", "Three of them, from a dealer in Lyon. Not my dad's copies, but still."),
            ("Declan", "That's something. We finally finished the bedroom, and we painted it yellow while we were at "
                       "it."),
            ("Malika", "Yellow! Bold. Send me a photo."),
            ("Declan", "I'm also getting gutter guards put in, no more birds."),
            ("Malika", "You and your birds."),
            ("Declan", "Ha, I've become a gutter person."),
        ]),
    ], answerable=[
        "What happened to Malika's basement in the storm?",
        "What happened to Declan's roof in the storm?",
        "What did Malika lose in the flood?",
        "How much did Declan's roof repair cost?",
        "Where did Malika find replacement records?",
        "What did the roofers find in Declan's gutter?",
    ], unanswerable=[
        "What did Declan lose in the flood?",
        "How much did Declan pay to hire a pump?",
        "What is Declan's insurance covering?",
        "How much did Malika's roof repair cost?",
        "What is Malika installing on her gutters?",
    ]),
    C(("Noa", "Tevita"), [
        ("2024-11-20", [
            ("Noa", "Tevita! I got a stall at the Christmas market on the square, Saturdays in December. I'm selling "
                    "my knitted hats!"),
            ("Tevita", "Noa, that's so exciting! How many have you made?"),
            ("Noa", "Forty-two so far, I'm aiming for sixty. My fingers are permanently bent."),
            ("Tevita", "I'm actually trying to learn crochet, my cousin Mele taught me a basic stitch at a family "
                       "lunch last weekend."),
            ("Noa", "Crochet! What are you making?"),
            ("Tevita", "A very wonky granny square. It's meant to become a blanket for my niece, but at this rate "
                       "she'll be at university."),
            ("Noa", "Ha. Everyone's first squares are wonky. Use a bigger hook."),
            ("Tevita", "Will you have scarves at the stall too?"),
            ("Noa", "Just hats, and a few pairs of mittens if I have time. The wool is from a farm in the Faroe "
                    "Islands, it's really warm."),
            ("Tevita", "I'll come the first Saturday."),
        ]),
        ("2024-12-09", [
            ("Tevita", "I came on Saturday but you were swamped, so I just waved. I bought a scarf from the stall "
                       "next to yours, the woman with the alpaca wool."),
            ("Noa", "I saw you! That's Birgit, she's lovely. Do you like the scarf?"),
            ("Tevita", "It's so soft, I've worn it every day. It was 45, which felt steep, but worth it."),
            ("Noa", "I sold twenty-three hats on the first day! I was not expecting that."),
            ("Tevita", "That's amazing! Which was the bestseller?"),
            ("Noa", "The mustard one with the bobble. I need to knit more this week."),
            ("Tevita", "My granny squares are getting better, I've done nine now."),
            ("Noa", "Nine! The blanket is happening."),
            ("Tevita", "Slowly, slowly."),
        ]),
        ("2025-01-06", [
            ("Noa", "The market's over and I'm exhausted. Sold 58 hats in total and all the mittens."),
            ("Tevita", "Wow! What will you do with the money?"),
            ("Noa", "Buy a proper spinning wheel. I want to spin my own yarn next winter."),
            ("Tevita", "So ambitious. I finished the blanket! Gave it to my niece on New Year's Day."),
            ("Noa", "Tevita! Did she love it?"),
            ("Tevita", "She dragged it round the house all day. My sister cried."),
            ("Noa", "Okay, now you have to make me one."),
            ("Tevita", "Give me three years."),
        ]),
    ], answerable=[
        "How did Noa take part in the Christmas market?",
        "Where did Tevita buy his scarf?",
        "Who taught Tevita to crochet?",
        "How many hats did Noa sell at the Christmas market?",
        "What will Noa buy with the money from the market?",
        "Who did Tevita make the blanket for?",
    ], unanswerable=[
        "Where did Noa buy her scarf?",
        "Who taught Noa to crochet?",
        "How many hats did Tevita sell at the Christmas market?",
        "Who did Noa make a blanket for?",
        "Where does the wool for Tevita's hats come from?",
    ]),
]
# fmt: on
