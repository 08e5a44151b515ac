"""Life events told in passing: a new job, a death, a deadline met, a course finished, a diet, a reading.

Faults seen in round 21's probe of users' lives (and two left from round 20): "Started at the Royal Free as
a ward sister" left "works as a nurse at St Mary's" current; "we had to put Rex down" left "Rex is slowing
down" going on; "submitted my thesis" left it due in August, and "graduated with distinction" left the
master's being done; "I eat eggs again, so I'm vegetarian really" left "vegan for two years"; "cholesterol
is down to 5.1" left 6.2 (an amount with no unit); "we've pushed the wedding back to September" left it in
June; "Mia and I got engaged" was written "User's girlfriend User and Mia got engaged"; a move kept a cat
said to have died; and "switched to electric guitar for the band" replaced all the user's guitar playing.
What only looks like one of these must change nothing: someone else's new job, a match lost, a shift
finished, someone else's reading. After those rules, one more family was written (DEV and HELD-OUT
together, before its rule): something arranged for a day of the month ("the funeral is on the 12th"),
later told as done. A second probe (8) then gave six more families, written the same way: a plan that
is off ("Trip's off"), retiring, a birth after a pregnancy, back at work after a leave, an event that a
later state of the same one leaves be ("Noah is sleeping through the night now" had closed "Baby Noah
arrived"), and a sober streak that ends.

Cases are as in :mod:`evaluation.life_changes` (the first statement, a second 30 days later, words still
told, words no longer told). For "Mia and I", the words no longer told are the garbled relation ("girlfriend
user"). DEV and HELD-OUT were written together before any rule; DEV's failures were read, HELD-OUT's never.
Run ``python -m evaluation.life_events``.
"""

from __future__ import annotations

from evaluation.life_changes import Case, measure
from evaluation.restated import report_splits

DEV: tuple[Case, ...] = (
    # A new job told as started, joined or taken.
    ("I work as a nurse at St Mary's hospital.", "Started at the Royal Free as a ward sister this week!",
     ("royal free",), ("at st mary's",)),
    ("I'm an accountant at PwC.", "I joined Monzo as a data analyst last month.", ("monzo",), ("accountant at pwc",)),
    ("I'm a teacher at Hillside Primary.", "Accepted the job at Oakwood Academy, I start on the 1st.", ("oakwood",),
     ("teacher at hillside",)),
    ("I work as a nurse at St Mary's hospital.", "My brother started at Google this week.", ("st mary's", "google"),
     ()),
    ("I work at Deloitte as an auditor.", "I started a pottery class this week.", ("deloitte", "pottery"), ()),
    # A death in other words.
    ("Rex is 12, he's slowing down a lot.", "We had to put Rex down last week.", ("rex down",), ("slowing down",)),
    ("Our cat Mittens has diabetes, she gets insulin twice a day.", "Mittens was put to sleep on Friday.",
     ("put to sleep",), ("insulin",)),
    ("My grandmother is in a hospice.", "We lost my grandmother on Sunday.", ("lost",), ("in a hospice",)),
    ("Our cat Mittens has diabetes.", "We put the Christmas tree up.", ("diabetes", "christmas tree"), ()),
    ("My grandmother is in a hospice.", "We lost the match on Sunday.", ("hospice", "match"), ()),
    ("I live in Kraków with my cats Pixel and Byte. Sadly Byte died last month.", "We just moved to Warsaw.",
     ("warsaw", "pixel"), ("pixel and byte",)),
    # Something due, then done.
    ("My thesis is due in August.", "Submitted my thesis today!", ("submitted",), ("due in august",)),
    ("My tax return is due on 31 January.", "Filed my tax return this morning.", ("filed",), ("due on 31 january",)),
    ("The grant application deadline is next Friday.", "I sent off the grant application yesterday.", ("sent off",),
     ("deadline is",)),
    ("My thesis is due in August.", "My friend submitted her thesis today.", ("due in august", "submitted"), ()),
    ("My tax return is due on 31 January.", "I filed the photos from our trip.", ("due on 31 january", "photos"), ()),
    # A course finished.
    ("I'm doing a part-time master's in data science at UCL.", "Graduated with distinction!", ("graduated",),
     ("doing a part-time master's",)),
    ("I'm studying for a nursing degree.", "I finished my nursing degree last month!", ("finished",),
     ("studying for a nursing degree",)),
    ("I'm doing an apprenticeship as an electrician.",
     "I completed my apprenticeship, I'm a qualified electrician now!",
     ("qualified",), ("doing an apprenticeship",)),
    ("I'm doing a part-time master's in data science.", "My son graduated from high school.", ("master's", "graduated"),
     ()),
    ("I'm studying for a nursing degree.", "I finished my shift early today.", ("nursing degree", "shift"), ()),
    # What the user eats, named anew.
    ("I've been vegan for two years.", "I eat eggs again now, so I'm vegetarian really.", ("vegetarian",),
     ("vegan for two years",)),
    ("I'm pescatarian.", "I've gone fully vegetarian, no more fish.", ("vegetarian",), ("pescatarian",)),
    ("I'm vegetarian.", "I'm vegan now.", ("vegan",), ("user is vegetarian",)),
    ("I'm vegetarian.", "My husband is vegan.", ("vegetarian", "vegan"), ()),
    ("I've been vegan for two years.", "I made a vegetarian lasagne for the neighbours.", ("vegan", "lasagne"), ()),
    # A reading with no unit.
    ("My doctor says my cholesterol is 6.2, which is too high.",
     "Cholesterol is down to 5.1 after three months of oats!",
     ("5.1",), ("6.2",)),
    ("My credit score is 640.", "My credit score went up to 710!", ("710",), ("640",)),
    ("My golf handicap is 18.", "Handicap is down to 14 this season.", ("14",), ("handicap is 18",)),
    ("My cholesterol is 6.2.", "My dad's cholesterol is 7.0.", ("6.2", "7.0"), ()),
    ("My golf handicap is 18.", "I shot 82 on Saturday.", ("handicap is 18", "82"), ()),
    # Someone named beside "I".
    ("My girlfriend Mia and I live together in Glasgow.", "Mia and I got engaged last night!", ("engaged",),
     ("girlfriend user",)),
    ("My brother Tom lives in Leeds.", "Tom and I went fishing on Saturday.", ("fishing",), ("brother user",)),
    ("My friend Priya is a nurse.", "Priya and I are going to Rome in May.", ("rome",), ("friend user",)),
    # A date put back or brought forward.
    ("The wedding is planned for next June.", "We've pushed the wedding back to September.", ("september",),
     ("next june",)),
    ("My surgery is scheduled for 4 May.", "The surgery has been postponed to 18 May.", ("18 may",), ("4 may",)),
    ("The product launch is on 10 March.", "We brought the launch forward to 1 March.", ("1 march",), ("10 march",)),
    ("The wedding is planned for next June.", "My brother's wedding was postponed to August.", ("june", "august"), ()),
    ("My surgery is scheduled for 4 May.", "My dentist appointment got moved to Friday.", ("4 may", "friday"), ()),
    # Round 21, after the rules above: something arranged for a day of the month, then told as done.
    ("My grandad's funeral is on the 12th.", "I went to the funeral, it was a lovely service.", ("lovely service",),
     ("funeral is on the 12th",)),
    ("The plumber is coming on the 3rd.", "The plumber came and fixed the boiler.", ("fixed the boiler",),
     ("coming on the 3rd",)),
    ("My eye test is on the 21st.", "Did my eye test today, I need glasses now.", ("glasses",),
     ("test is on the 21st",)),
    ("My grandad's funeral is on the 12th.", "I went to a concert on Friday.", ("funeral", "concert"), ()),
    # Probe 8 (round 21, written after the rules above, before their own): a plan that is off; retiring; a
    # birth after a pregnancy; back at work after a leave; an event that a later state of theirs leaves be;
    # a sober streak that ends.
    ("I'm saving up for a trip to Peru next year.", "Trip's off, I broke my leg.", ("broke",), ("trip to peru",)),
    ("We're having a barbecue on Saturday.", "The barbecue is off, it's going to rain.", ("is off",),
     ("having a barbecue",)),
    ("We're having a barbecue on Saturday.", "I've got Friday off work.", ("barbecue", "friday off"), ()),
    ("I'm retiring at the end of the school year.", "Retired! Last day was Friday.", ("retired",),
     ("retiring at the end",)),
    ("I teach year 4 at Greenfield Primary.", "I retired last month after 30 years of teaching.", ("retired",),
     ("teach year 4",)),
    ("I teach year 4 at Greenfield Primary.", "My husband retired last month.", ("year 4", "retired"), ()),
    ("I'm 7 months pregnant with our first!", "Baby Noah arrived on Tuesday, 3.4kg!", ("noah",), ("pregnant",)),
    ("My wife is due in March.", "Our daughter was born last night!", ("born",), ("due in march",)),
    ("I'm 7 months pregnant.", "My sister had her baby on Tuesday.", ("pregnant", "sister"), ()),
    ("I'm on maternity leave until March.", "Back at work part-time from Monday.", ("part-time",),
     ("maternity leave",)),
    ("I'm off sick with a bad back.", "I'm back at work this week, my back is much better.", ("back at work",),
     ("off sick",)),
    ("I'm on maternity leave until March.", "My partner went back to work on Monday.", ("maternity leave", "partner"),
     ()),
    ("Baby Noah arrived on Tuesday, 3.4kg!", "Noah is sleeping through the night now.", ("arrived", "sleeping through"),
     ()),
    ("We adopted a rescue dog called Pip, she's 2.", "Pip is much calmer now.", ("adopted", "calmer"), ()),
    ("My son Leo started school in September, he loves it.", "Leo is reading chapter books now.",
     ("started school", "chapter books"), ()),
    ("I've been sober for 18 months.", "Had a slip last week, back to day 1.", ("slip",), ("sober for 18 months",)),
    ("I've been smoke-free for a year.", "I started smoking again last month.", ("smoking again",),
     ("smoke-free for a year",)),
    ("I've been sober for 18 months.", "My brother relapsed last week.", ("sober", "relapsed"), ()),
    # A switch for one purpose is beside the rest.
    ("I play the guitar, mostly classical.", "I've switched to electric guitar for the band.",
     ("classical", "electric"), ()),
    ("I use a Kindle for reading, mostly fantasy.", "I've switched to audiobooks for my commute.",
     ("kindle", "audiobooks"), ()),
    ("I drink oat milk in my coffee.", "I've switched to almond milk for my coffee.", ("almond",), ("oat milk",)),
    ("I drive to work.", "I've switched to the train for my commute.", ("train",), ("drive to work",)),
)  # fmt: skip
HELD: tuple[Case, ...] = (
    ("I work as a chef at Dishoom.", "Started my new job at Hawksmoor on Monday, head chef now!", ("hawksmoor",),
     ("at dishoom",)),
    ("I'm a software engineer at Atlassian.", "I've joined Canva as a staff engineer.", ("canva",), ("at atlassian",)),
    ("I work at Tesco on the tills.", "I started at Aldi last week, better pay.", ("aldi",), ("at tesco",)),
    ("I'm a software engineer at Atlassian.", "My wife joined Canva last week.", ("atlassian", "canva"), ()),
    ("I work as a chef at Dishoom.", "I joined a running club on Monday.", ("dishoom", "running club"), ()),
    ("Our dog Biscuit has arthritis and is on painkillers.", "We had Biscuit put to sleep yesterday.",
     ("put to sleep",), ("painkillers",)),
    ("My uncle Ray is in intensive care.", "We lost Uncle Ray this morning.", ("lost",), ("intensive care",)),
    ("My horse Duke is 25 and lives at a livery yard.", "We had to have Duke put down on Monday.", ("put down",),
     ("livery yard",)),
    ("My uncle Ray is in intensive care.", "We lost our way driving to the hospital.",
     ("intensive care", "lost our way"), ()),
    ("Our dog Biscuit has arthritis.", "We put Biscuit's bed downstairs.", ("arthritis", "bed downstairs"), ()),
    ("I live in Bath with my two dogs, Rolo and Fudge. Fudge died in the spring.", "We've moved to Cardiff.",
     ("cardiff", "rolo"), ("rolo and fudge",)),
    ("My essay is due on Monday.", "Handed in my essay, such a relief.", ("handed in",), ("due on monday",)),
    ("The visa renewal deadline is 3 March.", "Renewed my visa last week.", ("renewed",), ("deadline is",)),
    ("My book manuscript is due to the publisher in June.", "I delivered the manuscript to my publisher!",
     ("delivered",), ("due to the publisher",)),
    ("My essay is due on Monday.", "I handed in my notice at work.", ("essay", "notice"), ()),
    ("The visa renewal deadline is 3 March.", "My brother renewed his passport.", ("visa", "passport"), ()),
    ("I'm in my final year of a law degree at Leeds.", "I graduated from Leeds last week!", ("graduated",),
     ("final year",)),
    ("I'm doing a coding bootcamp.", "Finished the bootcamp, I'm job hunting now.", ("job hunting",),
     ("doing a coding bootcamp",)),
    ("I'm taking an evening course in accounting.", "I completed the accounting course with a merit.", ("completed",),
     ("taking an evening course",)),
    ("I'm in my final year of a law degree.", "My sister graduated from Oxford.", ("law degree", "oxford"), ()),
    ("I'm doing a coding bootcamp.", "I finished a 1000-piece puzzle.", ("bootcamp", "puzzle"), ()),
    ("I'm a vegetarian.", "I'm pescatarian these days, I started eating fish.", ("pescatarian",),
     ("user is a vegetarian",)),
    ("I've been vegan since 2020.", "I'm vegetarian now, I couldn't give up cheese.", ("vegetarian",),
     ("vegan since",)),
    ("I'm pescatarian.", "I eat meat again, I'm not pescatarian anymore.", ("meat",), ("user is pescatarian",)),
    ("I'm a vegetarian.", "My daughter has gone vegan.", ("vegetarian", "vegan"), ()),
    ("I've been vegan since 2020.", "We went to a vegetarian restaurant on Friday.", ("vegan", "restaurant"), ()),
    ("My HbA1c was 58 at the last check.", "HbA1c is down to 49 now!", ("49",), ("58",)),
    ("My resting heart rate is 72.", "Resting heart rate is 61 these days.", ("61",), ("72",)),
    ("My chess rating is 1450.", "My chess rating is up to 1600.", ("1600",), ("1450",)),
    ("My resting heart rate is 72.", "My wife's resting heart rate is 55.", ("72", "55"), ()),
    ("My chess rating is 1450.", "I won 3 games at the club on Tuesday.", ("1450", "3 games"), ()),
    ("My wife Elena is a pilot.", "Elena and I celebrated our anniversary in Paris.", ("paris",), ("wife user",)),
    ("My colleague Ben sits next to me.", "Ben and I are running the London marathon together.", ("marathon",),
     ("colleague user",)),
    ("My son Leo is 7.", "Leo and I built a treehouse this weekend.", ("treehouse",), ("son user",)),
    ("Our housewarming party is on the 14th.", "We postponed the housewarming to the 21st.", ("21st",), ("14th",)),
    ("My court hearing is on 2 April.", "The hearing was pushed back to June.", ("june",), ("2 april",)),
    ("The kitchen fitters are coming on Monday.", "The kitchen fitters are now coming on Thursday.", ("thursday",),
     ("monday",)),
    ("Our housewarming party is on the 14th.", "My friend's birthday party got pushed to the 20th.", ("14th", "20th"),
     ()),
    ("My court hearing is on 2 April.", "The match was postponed to Sunday.", ("2 april", "sunday"), ()),
    ("My sister's hen party is on the 20th.", "Went to my sister's hen party, what a night!", ("what a night",),
     ("party is on the 20th",)),
    ("I have a smear test on the 9th.", "Had my smear test this morning, all fine.", ("all fine",), ("on the 9th",)),
    ("The electrician is booked for the 14th.", "The electrician came today and rewired the kitchen.",
     ("rewired",), ("booked for the 14th",)),
    ("I have a smear test on the 9th.", "I had a haircut today.", ("smear test", "haircut"), ()),
    ("The wedding is planned for June.", "The wedding's off, we broke up.", ("broke up",), ("planned for june",)),
    ("We're going camping this weekend.", "Camping is off, the car broke down.", ("car broke down",),
     ("going camping",)),
    ("We're going camping this weekend.", "I took the day off on Monday.", ("camping", "day off"), ()),
    ("I'm planning to retire next summer.", "I've officially retired!", ("retired",), ("planning to retire",)),
    ("I work as a postman in Leeds.", "I retired in March, no more early starts.", ("retired",), ("postman",)),
    ("I work as a postman in Leeds.", "My dad retired in March.", ("postman", "retired"), ()),
    ("We're expecting twins in the spring.", "The twins were born on Friday, both healthy!", ("twins were born",),
     ("expecting twins",)),
    ("I'm pregnant, due in August.", "I gave birth to a baby girl on Sunday.", ("baby girl",), ("pregnant",)),
    ("We're expecting twins in the spring.", "Our neighbours had a baby boy.", ("twins", "baby boy"), ()),
    ("I'm on sabbatical for six months.", "Back at the office since Monday, sabbatical done.", ("office",),
     ("on sabbatical",)),
    ("I'm on paternity leave.", "I went back to work yesterday.", ("back to work",), ("on paternity leave",)),
    ("I'm on sabbatical for six months.", "My colleague is back at work.", ("sabbatical", "colleague"), ()),
    ("Our daughter Ava was born in May, 3kg.", "Ava is crawling now!", ("born", "crawling"), ()),
    ("We got a kitten named Olive, she's 10 weeks old.", "Olive is much bigger now.", ("kitten", "bigger"), ()),
    ("My brother Sam moved to Canada last year, he's loving it.", "Sam is engaged now!", ("canada", "engaged"), ()),
    ("I haven't had a drink in two years.", "I relapsed over Christmas, starting again.", ("relapsed",),
     ("in two years",)),
    ("I'm 6 months clean.", "I used again last weekend, back to square one.", ("square one",), ("6 months clean",)),
    ("I haven't had a drink in two years.", "My friend started drinking again.", ("two years", "drinking again"), ()),
    ("I run in Nike Pegasus shoes.", "I've switched to trail shoes for the weekend hill runs.",
     ("pegasus", "trail shoes"), ()),
    ("I write in Notion.", "I've switched to paper notebooks for journaling.", ("notion", "notebooks"), ()),
    ("I use Chrome on my laptop.", "I've switched to Firefox on my laptop.", ("firefox",), ("chrome",)),
    ("I take the bus to work.", "I've switched to cycling for getting to work.", ("cycling",), ("bus to work",)),
)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    report_splits(__doc__, measure, (DEV, HELD), ("what changed told right", "nothing changed, both kept"), argv)


if __name__ == "__main__":
    main()
