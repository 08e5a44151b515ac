"""Sessions written for round 28 before its session rules were measured on them: corrections later in
the session and picks among the agent's options, said in other ways than session probe 15's DEV cases.

Run by ``python -m evaluation.session_probe --written``; DEV was used while changing rules, HELD-OUT is only
counted (its failures are never printed).
"""

from __future__ import annotations

from evaluation.session_probe_cases import S, SessionCase

# fmt: off
DEV: list[SessionCase] = [
    S([("user", "my dentist appointment is on the 12th, remind me to floss more before it lol"),
       ("agent", "Will do! Anything else?"),
       ("user", "actually it's the 15th, I misread the card")],
      [["dentist", "15th"]], ["12th"], "correction: day said as 'actually it's'"),
    S([("user", "I'm driving to Leeds on Friday for my cousin's wedding"),
       ("agent", "Nice! Want a playlist for the drive?"),
       ("user", "sure. oh and I meant Saturday, not Friday")],
      [["leeds", "saturday"]], ["friday"], "correction: 'I meant X, not Y'"),
    S([("user", "my budget for the new sofa is 800 pounds"),
       ("agent", "Great, here are three options under 800."),
       ("user", "make that 1000, my partner wants to chip in")],
      [["sofa", "1000"]], [], "correction: 'make that N'"),
    S([("agent", "Which laptop are you leaning towards? 1. Framework 13, 2. Dell XPS 13, 3. Asus Zenbook 14"),
       ("user", "option 1")],
      [["framework"]], [], "pick: 'option 1'"),
    S([("user", "help me pick a gym"),
       ("agent", "Options near you: PureGym, The Gym Group, or a Nuffield Health club."),
       ("user", "nuffield, it has a pool")],
      [["nuffield"]], [], "pick: a word of the option"),
    S([("user", "what should I get my dad for his 60th"),
       ("agent", "You could book a whisky tasting, get a framed vintage map of his hometown, or plan a fishing day."),
       ("user", "the fishing day, he'd love that")],
      [["fishing"]], [], "pick: 'the X' naming an option said as a verb"),
]
HELD: list[SessionCase] = [
    S([("user", "my flight to Rome is on the 3rd of June"),
       ("agent", "Noted. Do you need a hotel too?"),
       ("user", "yes please. correction though, it's the 5th of June")],
      [["rome", "5th"]], ["3rd"], "correction: 'correction though, it's'"),
    S([("user", "my son Leo is 8 and obsessed with space"),
       ("agent", "Lovely age for it! A planetarium trip could be fun."),
       ("user", "sorry, he's 9 now, birthday was last week")],
      [["leo", "9"]], [], "correction: 'sorry, he's N'"),
    S([("user", "I work at Barclays as an analyst"),
       ("agent", "Thanks! How can I help with work today?"),
       ("user", "HSBC, not Barclays, sorry, I changed jobs")],
      [["hsbc"]], ["barclays"], "correction: 'X, not Y' without an opener"),
    S([("agent", "For the trip I found: a) a cabin by the lake, b) a hotel in town, c) a glamping site"),
       ("user", "the cabin please")],
      [["cabin"]], [], "pick: a word of a lettered option"),
    S([("user", "need a new phone plan"),
       ("agent", "You could go with Mint Mobile, Visible, or stay on Verizon but drop to the basic tier."),
       ("user", "visible")],
      [["visible"]], [], "pick: one word"),
    S([("agent", "Here are two recipes: 1) lentil curry 2) mushroom risotto. Which one?"),
       ("user", "first one!")],
      [["lentil"]], [], "pick: 'first one'"),
]
# fmt: on
