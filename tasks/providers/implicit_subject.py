"""A user's sentence said without its subject means "I": chat drops it ("Grabbed lunch with Priya",
"Worried about the exam", "No time for breakfast these days"). The rewrite about the speaker needs it
back, or the memory reads "User mentioned that Grabbed lunch with Priya".

The past forms are the English irregular verbs as a whole (:data:`tasks.third_person.IRREGULAR_PAST`)
and any regular "-ed" word but an "-eed" base form (:func:`tasks.third_person.base_form`: "Speed",
"Indeed"), less what opens a sentence as something else: a present or imperative form ("Set a
reminder", "Let me know"), a noun, a name or a day ("Rose", "Ground beef", "Sat"), a name ending in
"-ed" ("Fred is coming over": a name is followed by its verb).

An opening "-ing" verb means "I'm" ("Heading to Lisbon next week") unless it is a noun ("Morning run
done") or its clause has a verb of its own, which makes it the subject ("Running is my favourite way
to unwind", "Gardening calms me down"); "Been ..." means "I've been"; "Not a fan of", "Big fan of",
"Not sure about", "Not much of a morning person" mean "I'm". A present verb means "I" when it is rarely
an imperative ("Prefer window seats", "Need a new laptop") or follows an adverb of habit ("Mainly use
Python"); "Use metric units" stays an imperative.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from tasks.providers.clause_shape import is_verbless
from tasks.textrules import content_words
from tasks.third_person import HABIT_VERBS, IRREGULAR_PAST, base_form

#: Past forms that open a sentence as a present or imperative form, a noun, a name or a day.
_NOT_OPENING_PAST_TEXT = (
    "bet bid bit bore bound burst cast cost cut dove fed ground hit hurt lent let lit put read rose sat set shed "
    "shut slit split spread thrust upset wed wound bade"
)
_NOT_OPENING_PAST = frozenset(_NOT_OPENING_PAST_TEXT.split())
#: Participles that say how the speaker is ("Worried about the exam" is "I'm worried"), before a
#: preposition, "that" or the sentence's end; before an object they are verbs ("Married Sam in 2019").
_STATES = (
    "worried|excited|bored|tired|stressed|thrilled|scared|terrified|pleased|obsessed|exhausted|interested|"
    "annoyed|frustrated|disappointed|surprised|shocked|amazed|relieved|confused|overwhelmed|depressed|"
    "motivated|inspired|impressed|embarrassed|satisfied|married|engaged|divorced|retired|stuck|upset|done|"
    "based|located|supposed|allowed|convinced|determined|prepared|qualified|addicted|hooked|involved"
)
#: How much, before a state or an adjective ("Really stressed about the move", "So glad to be home").
_DEGREE = (
    r"(?:(?:so|really|super|very|pretty|quite|a bit|kinda|totally|still|now|finally|just|severely|mildly|currently) )?"
)
_AM = re.compile(
    rf"{_DEGREE}(?:{_STATES})(?=\s*(?:$|[,.!;:-]|(?:about|for|with|by|of|to|at|in|on|that|from|after|because|since|"
    r"now|today|lately|again|already)\b))",
    re.I,
)
#: Adjectives that say how or where the speaker is ("Allergic to cats", "Busy with exams", "Back in
#: London", "Down to 79kg"), before a preposition or a time only: "Happy birthday", "Free shipping" are not about them.
_ADJECTIVES = (
    "allergic|afraid|busy|sick|ill|pregnant|single|vegan|vegetarian|glad|proud|ready|keen|late|free|away|home|"
    "back|new|nervous|anxious|grateful|thankful|lucky|fluent|sore|broke|fond|aware|happy|sad|jealous|sober|"
    "hungry|starving|lactose intolerant|gluten-free|down"
)
#: Where the speaker is in life or work, said without "I'm" ("Between jobs at the moment", "On holiday").
_AM_IN = re.compile(
    r"(?:still |currently )?(?:between jobs|on (?:holiday|vacation|leave|call|a diet|medication|a break|the road|"
    r"(?:maternity|paternity|sick|parental|annual) leave|night shifts?)|off (?:work|sick)|"
    r"out of (?:office|town|work))\b"
    r"|(?:still|currently) (?=(?:on|in|at|with) \w)",  # "Still on levothyroxine", "Currently in Leeds"
    re.I,
)
_AM_ADJECTIVE = re.compile(
    rf"{_DEGREE}(?:{_ADJECTIVES})(?=\s+(?:about|for|with|by|of|to|at|in|on|from|after|since|until|till|again|today|"
    r"tonight|this|all)\b)",
    re.I,
)
#: Verbs the subjectless sentence starts with before anything ("Had Thai again", "Can't stand X").
_ALWAYS = (
    r"can't|cannot|couldn't|won't|wasn't|haven't|had|was|got|went|loved?|hated?|needed|spent|finished|started|"
    r"bought|moved|switched|changed|sold|quit|stopped|gave up|upgraded|downgraded|migrated|relocated|traded"
)
_PAST = "|".join(sorted(IRREGULAR_PAST - _NOT_OPENING_PAST, key=len, reverse=True))
#: What follows a name, not a verb: "Fred is coming", "Ahmed said", "Hung and I".
_NAME_NEXT = r"(?:is|was|are|were|has|had|have|will|would|can|could|and|or|says|said|told|asked|'s)\b"
_I = re.compile(
    rf"(?:(?:just|recently|finally|also|since) )?(?:{_ALWAYS}"
    r"|\w+ed(?= (?:the|a|an|my|our|it|that|this|those|these|some)\b)"  # "Upgraded the plan"
    rf"|(?:{_PAST})(?= (?!{_NAME_NEXT})[\w$£€])"  # "Caught up with Marco", "Ran 10k"
    rf"|[a-z]{{3,}}ed(?= (?!{_NAME_NEXT}|\w+ed\b)[\w$£€]))\s",  # "Grabbed lunch", not "Fred called"
    re.I,
)
#: "-ing" words that open a sentence as a noun or a preposition, not as "I'm ...-ing".
_ING_NOUNS_TEXT = (
    "morning evening nothing something anything everything thing king spring string ring wing during according "
    "including regarding pending ceiling wedding building pudding clothing darling sibling lightning icing awning "
    "sterling offspring bearing earring"
)
_ING_NOUNS = frozenset(_ING_NOUNS_TEXT.split())
_ING = re.compile(r"(?:(?:just|still|currently|now|finally|also|slowly) )?([a-z]{2,}ing)\s", re.I)
#: What makes an "-ing" opener the subject of its own verb ("Running is my favourite way to unwind",
#: "Gardening calms me down", "Networking really pays off", "Dancing and singing need practice"): an
#: auxiliary or a past form, a verb that often follows such a subject, an "-s" word before an object
#: pronoun or a particle, a contracted "'s" before what an "is" or "has" is followed by.
_VERBS_AFTER_GERUND = (
    "help|make|take|keep|get|give|feel|seem|sound|look|cost|mean|pay|bring|boost|let|need|require|relax|calm|"
    "beat|bore|kill|hurt|stress|drive|tire|wear|cheer|matter|count|suck|rock|rule|teach|remind|inspire|"
    "motivate|put|leave|allow|lead|show|change|save|go|become|lift|clear|fill"
)
FINITE = re.compile(
    r"\b(?:is|isn't|was|wasn't|are|aren't|were|weren't|has|hasn't|had|does|doesn't|did|didn't|will|would|can|"
    r"could|should|might|must|made|took|kept|got|gave|felt|seemed|meant|brought|let|lets|"
    rf"(?:{_VERBS_AFTER_GERUND})(?:s|es)?)\b"
    # "pays off", "drives me": not a plural after a determiner ("a couple of weeks off", "my days off")
    r"|(?<!\bof )(?<!\ba )(?<!\bthe )(?<!\bmy )(?<!\bour )(?<!\bfew )(?<!\btwo )"
    r"\b[a-z]{3,}s (?:me|us|him|her|them|you|my|our|your|everyone|people|off|up|out|down)\b"
    r"|'s (?:been|a|an|the|so|really|such|not|always|never|pretty|quite|my|your|what|how)\b",
    re.I,
)
#: Where a part of the sentence ends: a comma, a colon or a dash.
_PART_END = re.compile(r"[,;:]\s*|\s[-–—]+\s|[-–—]\s")
#: A part that continues the opener's clause: an aside ("Creating community, especially for kids, is
#: really important", "Taking care of myself physically, emotionally, and mentally helps me").
_ASIDE = re.compile(
    r"(?:\w+ly|especially|including|like|such as|which|who|where|even|particularly|and|or|plus|along|away|not)\b",
    re.I,
)
#: A subject of its own later in the sentence: the opener is a participle ("Growing up, I saw ...") or a
#: topic the rest comments on ("Volunteering - it's so heartwarming", "Taking in kids, you're so kind").
_OWN_SUBJECT = re.compile(
    r"\bI\s+[a-z]|\b(?:I|we|you|he|she|they|it|that|this|there)(?:'s|'re|'m|'ve|'ll|'d|\s+(?:is|was|are|were|am|have|has|"
    r"had|can|could|will|would|should|must|might|do|does|did|don't|didn't|knew|know|think|thought|feel|felt|"
    r"saw|see|got|get|made|make|need|want|love|like|hope|wish|guess)\b)",
)
#: "Not a fan of X", "Not sure about Z", "Not really into W", "No longer drinking": how the speaker is,
#: with "I'm" left out.
_AM_NOT = re.compile(
    r"(?:still |really |honestly )?not (?:really |so |too |that |very |quite |totally |entirely |exactly )?"
    r"(?:sure|into|keen|interested|convinced|ready|a\b|big on|crazy about|fond of|[a-z]+ing\b(?! for me\b))"
    r"|(?:still )?no longer [a-z]+ing\b",
    re.I,
)
#: "Big fan of Y", "A huge fan of Z": "I'm a ...", with its article when the user left it out.
_FAN = re.compile(r"(a )?(?:big|huge|massive|great|long-?time|lifelong|die-?hard) fan of", re.I)
#: "Not much of a morning person", "Bit of a coffee snob": what kind of person the speaker is, not a
#: situation ("Bit of a problem with my order", "Kind of a mess at work").
_KIND = re.compile(
    r"(?P<a>a )?(?:not much|much|more|less|bit|little|kind|sort|something) of an? "
    r"(?!(?:[\w-]+ )?(?:problem|issue|mess|shock|surprise|pain|nightmare|struggle|hassle|disaster|challenge|change|"
    r"stretch|drive|walk|wait|worry|concern|mystery|question|bummer|letdown|headache|rush|blur|deal|thing)\b)\w",
    re.I,
)
#: Present verbs said without "I": ones that are rarely an imperative ("Prefer window seats", "Need a
#: new laptop"), and any verb after an adverb of habit or degree ("Mainly use Python", "Still own my
#: first guitar") when an object or a preposition follows it, not an adjective ("Really hungry for pizza").
_HABIT_ADVERB = (
    r"mainly|mostly|usually|normally|generally|typically|often|sometimes|rarely|seldom|really|totally|actually|"
    r"still|also|kinda|definitely|honestly|seriously|occasionally|barely|hardly|only"
)
_NOT_VERB_AFTER_ADVERB = (
    r"good|great|nice|bad|cool|fun|hard|easy|happy|sad|hungry|tired|cold|hot|warm|early|close|far|sure|sorry|"
    r"excited|important|interested|into|not|no|so|too|very|a|an|the|that|this|it|there|here|just|well|"
    rf"about|in|on|at|for|with|all|more|less|much|{_ADJECTIVES}|{_STATES}"
)
#: After an adverb of habit, also the verbs that are as often nouns or imperatives ("Usually play tennis").
_HABITS = (
    rf"{HABIT_VERBS}|play|work|drink|watch|read|walk|run|go|take|make|get|do|have|like|bike|shop|wake|order|stick|"
    r"agree|disagree|think|believe|feel|know|remember|forget"
)
_PRESENT = re.compile(
    r"(?:prefer|need|want|miss|own|adore|dislike|loathe|reckon|doubt)\s(?!to\s+(?:me|you)\b)"
    # "Have two cats", not "Have a nice day", "Have fun", "Have a look"
    r"|have\s(?!(?:an? )?(?:nice|good|great|lovely|fun|safe|wonderful|happy|blast|look|go|think|seat|break|rest|"
    r"try|listen|read|glance|drink|bite|taste|feeling|word|chat)\b)(?:an?|no|two|three|four|five|\d+|[A-Z]\w*)\b"
    rf"|(?:{_HABIT_ADVERB})\s(?:(?:{_HABITS})\b"
    rf"|(?!(?:{_NOT_VERB_AFTER_ADVERB})\b)[a-z]+(?<!ing)(?<![^e]ed)(?<![^s]s)(?<!ly)"
    r"(?=\s+(?:the|a|an|my|our|to|from|with|on|in|at|for|it|them|that|this|some|any|up|out|about|by|[A-Z]\w*|"
    r"\w+ing)\b))",
)
#: A state of mind, said with "I" left out ("Don't know what to do", "Never feel like I'm doing enough", "Don't
#: really care about football"): nobody asks the assistant to know, think or care, so it is never an instruction.
STATE_OF_MIND = (
    r"(?:(?:really|even|actually|quite|usually|honestly|totally) )?(?:know|think|care|feel|believe|understand|"
    r"understood|expect|suppose|guess|see myself|get why|get how|get what)\b(?! twice\b)"
)
#: "Always loved the sea", "Never really liked olives", "Always been a night owl": "always" or "never" before a
#: past form tells the speaker's own past; an instruction takes a plain verb ("Never book me before 8am").
_EVER_PAST = re.compile(r"(?:always|never)\s+(?:(?:really|actually|even|truly)\s+)?(?P<verb>[a-z]+)\b", re.I)
#: What only the user does ("don't own a car", "never eat pork"), not the agent ("don't use emojis").
_NOT_DONE = re.compile(
    r"(?:don['’]?t|do not|never) (?:own|eat|drink|smoke|drive|have|like|love|need|want|live|work|play|watch|cook|"
    rf"speak|sleep|exercise|celebrate|believe|trust|get along|go out|travel|fly|{STATE_OF_MIND})\b",
    re.I,
)
#: "Type 2 diabetic here", "nurse here, 12 hour shifts ...", "Fellow Canadian here!": who the speaker is.
_HERE = re.compile(
    r"(?P<a>(?:an?|just an?|another|also an?) )?(?!(?:same|me|nothing|everything|all|ok|okay|it|this|that|hi|hello|hey|"
    r"greetings|quick|question|the|my|your|our|his|her|their|cold|hot|warm|sunny|rainy|quiet|late|early|dark)\b)"
    r"(?P<what>[a-z][\w' -]{1,40}?) here(?=\s*(?:[,.!:;)]|\s-|$))",
    re.I,
)
#: A word for what someone is ("nurse", "Canadian", "first time mom"), which takes "a".
_ROLE = r"(?:er|or|ist|ian|ant|ent|nurse|mom|mum|dad|parent|student|newbie|lurker|dev|vet|fellow\b.*)$"
#: "No eggs please": what the user does not want ("No worries, please take your time" is not one).
_NO_PLEASE = re.compile(
    r"no (?!worries\b|problems?\b|prob\b|thanks\b|rush\b|hurry\b|pressure\b)(?P<what>[\w' -]+?),? please"
    r"(?=\s*(?:[,.!]|$))[,.!]?",
    re.I,
)
#: "No car at the moment": what the user has none of ("no worries", "no idea", "no rush" are not about them).
_HAVE_NO = re.compile(r"no (?!(?:more|longer|worries|problems?|prob|biggie|idea|way|thanks|rush|hurry|pressure|sweat|"
                      r"need|stress)\b)\w+", re.I)  # fmt: skip


def with_subject(body: str, names: Collection[str] = ()) -> str | None:
    """``body`` (a statement, filler removed) with the "I" it leaves out, or None when it has a subject.

    ``names`` are people the user has named before: a sentence that opens with one has its subject.
    """
    if body.endswith("?") or not body:
        return None
    first = body.split(maxsplit=1)[0].strip(",.!;:").lower()
    if first in {n.lower() for n in names}:
        return None
    lowered = body[:1].lower() + body[1:]
    # "Gonna start therapy"; "Gonna be a great night" is "It's gonna be", unless it says where or how they'll be
    if wanna := re.match(r"wanna\s", body, re.I):
        return f"I want to {body[wanna.end() :]}"  # "Wanna get fitter before the wedding"
    if re.match(r"(?:would (?:love|like|prefer|rather|hate|kill)|could (?:use|do with))\b", body, re.I):
        return f"I {lowered}"  # "Would love to visit Japan someday", "Could use a holiday"
    if re.match(r"used to (?!(?:it|that|this|them|the|an?|my|our|being)\b)[a-z]+\b", body, re.I):
        return f"I {lowered}"  # "Used to live in Leeds", not "Used to it by now"
    if gonna := re.match(r"gonna\s(?!be\b(?! (?:in|at|away|home|back|out|there|busy|late|off)\b))", body, re.I):
        return f"I'm going to {body[gonna.end() :]}"  # "Gonna start therapy next week"
    if _NOT_DONE.match(body):  # "don't own a car": the user's life, where "don't use emojis" asks the agent
        return f"I {lowered}"
    if re.match(r"(?:born|raised|brought up)(?: (?:and|&) (?:raised|bred))? in\b", body, re.I):
        return f"I was {lowered}"  # "born and raised in lagos"
    if re.match(r"originally from\b|from \w+(?: \w+)? originally\b", body, re.I):
        return f"I'm {lowered}"  # "originally from Ohio", "from ohio originally"
    if (here := _HERE.match(body)) and is_verbless(here["what"]):
        role = here["a"] is None and re.search(_ROLE, here["what"], re.I) is not None
        return f"I'm {'a ' if role else ''}{lowered[: here.end('what')]}{body[here.end() :]}"  # "nurse here, ..."
    if _AM.match(body) or _AM_NOT.match(body) or _AM_ADJECTIVE.match(body) or _AM_IN.match(body):
        return f"I'm {lowered}"
    if fan := _FAN.match(body):
        return f"I'm {lowered}" if fan[1] else f"I'm a {lowered}"
    if kind := _KIND.match(body):  # "Not much of a morning person", "Bit of a coffee snob"
        return f"I'm {lowered}" if kind["a"] or not lowered.startswith(("bit", "little")) else f"I'm a {lowered}"
    if ever := _EVER_PAST.match(body):
        verb = ever["verb"].lower()
        if verb in {"been", "had"}:
            return f"I've {lowered}"  # "Never been to Spain", "Never had sushi before"
        if re.search(r"[^e]ed$", verb) or verb in IRREGULAR_PAST:
            return f"I {lowered}"  # "Always loved the sea", "Never learned to swim"
    if _PRESENT.match(lowered):  # "Prefer window seats", "Mainly use Python at work"
        return f"I {lowered}"
    if re.match(r"been\s(?!an?\b)(?!.*\bfor (?:me|us)\b)", body, re.I):  # not "Been a long week": "It's been"
        return f"I've {lowered}"  # "Been learning Portuguese", "Been to Japan twice"
    if (ing := _ING.match(body)) and _progressive(body, ing):
        return f"I'm {lowered}"  # "Running my first half marathon in October"
    if (m := _I.match(body)) and not base_form(m[0].split()[-1].lower()):  # "Speed dating", "Indeed"
        return f"I {lowered}"
    if unwanted := _NO_PLEASE.match(body):  # "No eggs please, I can't stand them": not "I have no eggs"
        rest = body[unwanted.end() :].strip()
        return f"I don't want {unwanted['what']}" + (f", {rest}" if rest else ".")
    if _HAVE_NO.match(body) and len(content_words(body)) >= 2:
        return f"I have {lowered}"  # "No time for breakfast these days"
    return None


#: A clause of its own with its own subject inside the sentence ("while the pool is closed").
_SUBORDINATE = re.compile(
    r"\b(?:while|because|since|until|when|whenever|as|after|before) (?:the|my|our|his|her|their|it|he|she|they|we|I)\b"
)


def _finite_count(text: str) -> int:
    """How many finite verbs ``text`` has, counting a contracted "'s" or "'re" ("when it's cold is hard": 2)."""
    return len(FINITE.findall(text)) + len(re.findall(r"\b\w+['’](?:s|re|m)\b", text))


def _progressive(body: str, ing: re.Match[str]) -> bool:
    """An opening "-ing" word that is the speaker's doing ("Heading to Lisbon"), not a noun ("Morning
    run done") nor a gerund that is its clause's subject ("Swimming in the lake was the highlight")."""
    word = ing[1].lower()
    if word in _ING_NOUNS or len(word) < 5:
        return False
    rest = re.split(r"[.!?](?:\s|$)", body[ing.end() :], maxsplit=1)[0]
    if not re.match(r"[a-z'$£€\d]", rest, re.I) or re.match(r"(?:but|and|or)\b", rest):
        return False  # an adjective said alone: "Exciting but kinda nerve-wracking", "Inspiring 💪"
    if (aside := _SUBORDINATE.search(rest)) and _finite_count(rest[aside.start() :]) == 1:
        rest = rest[: aside.start()]  # "Taking a break while the pool is closed": "is" is the aside's verb
    parts = _PART_END.split(rest)
    clause = parts[0]
    for part in parts[1:]:  # an aside, or the clause's own verb after one, continues it
        if not (_ASIDE.match(part) or FINITE.match(part)):
            break
        clause = f"{clause}, {part}"
    return FINITE.search(clause) is None and _OWN_SUBJECT.search(rest) is None
