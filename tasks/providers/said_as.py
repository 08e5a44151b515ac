"""The user's sentence as the rewrite about the speaker reads it: a relative named without "my" is the
speaker's ("Dad turns 70 in March"), "My sister's getting married" says "is", "Please call me Jo" names
the user, and a statement's trailing question to the agent is left out ("…, any tips?", "… 😩 is that
even legal?"). Split from :mod:`tasks.providers.implicit_subject`, which supplies the subject itself.
"""

from __future__ import annotations

import re

from tasks.providers.implicit_subject import FINITE
from tasks.providers.nickname import CALL_ME
from tasks.providers.wording import STOP
from tasks.textrules import UNMARKED_QUESTION
from tasks.third_person import IRREGULAR_PAST
from tasks.wordnet import opens_with_common_word

#: A parent or grandparent called by the word for them ("Dad turns 70 in March") is the speaker's; so is
#: another relative named without "my" when a verb follows ("Sister's getting married", "Son started
#: nursery"), not a noun ("Cat videos are my weakness"), and plural ones ("Kids are off school").
_KIN = re.compile(
    r"(?:dad|daddy|mom|mommy|mum|mummy|mama|papa|grandma|grandpa|granny|grandad|granddad|nana)(?= [a-z]|'s )"
    r"|(?:wife|husband|partner|fiance|fiancee|boyfriend|girlfriend|bf|gf|hubby|son|daughter|stepson|stepdaughter|"
    r"brother|sister|grandson|granddaughter|aunt|uncle|cousin|niece|nephew|bestie|flatmate|roommate|housemate|"
    r"neighbour|neighbor|boss|manager|doctor|therapist|dog|cat|puppy|kitten|landlord|"
    # and a thing of theirs: "Bike got stolen", "Laptop died this morning", "Car's in the shop"
    r"car|bike|laptop|phone|flat|apartment|house|boiler|fridge|computer|wifi|credit card|(?:car |student )?loan|"
    r"knee|back|shoulder|wrist|ankle|finger|thumb|toe|foot|hand|hip|elbow|neck|leg|arm|hamstring|calf|mortgage|overdraft|"
    r"cholesterol|blood pressure|blood sugar|(?:resting )?heart rate|hba1c|handicap|credit score|(?:chess )?rating)"
    r"(?='s | (?:just|finally|always|never|still|really|also|recently|already|is|isn't|was|wasn't|has|hasn't|had|"
    r"will|won't|can|can't|could|would|did|didn't|does|doesn't|says|said|\w+ed|"
    + "|".join(sorted(IRREGULAR_PAST))
    + r")\b| [a-z]+s\b(?! (?:are|were)\b))"
    r"|(?:kids|parents|grandparents|in-laws|folks|twins)(?= [a-z])"
)
#: "'s" after the speaker's someone: "is" before an "-ing" verb that no finite verb follows ("My sister's
#: getting married", not "My sister's wedding is in June"), "has" before "been" / "got" / "gone".
_THEIR_S = re.compile(r"(?P<who>My [\w-]+)'s (?=(?P<has>been|got|gotten|gone)\b|\w+ing\b(?P<rest>[^,;:.!?]*))")
#: A statement that ends by asking ("I'm thinking of learning the guitar, any tips?", "… $1,950 a month, is
#: that reasonable?"): the question is for the agent, the statement before it is the user's.
_ASKS = re.compile(
    r"(?P<said>[^?]{12,}?)(?:,|\s[\U0001F300-\U0001FAFF]+)\s*(?P<ask>(?:any|what|which|how|where|who|when|thoughts|"
    r"ideas|suggestions|advice|recommendations|right|ok|okay|yeah|can you|could you|would you|do you|should I|"
    r"(?:is|was|does|would) (?:that|this|it))\b[^,?]{0,50})\?$",
    re.I,
)
_QUESTION_FIRST = re.compile(
    r"(?:what|where|when|who|why|how|which|is|are|am|do|does|did|can|could|would|should|will|have|has|any)\b",
    re.I,
)
#: A question asked first, then what the user tells about themselves: "where should we eat in Porto, I'm
#: vegetarian btw".
_ASKED_FIRST = re.compile(
    rf"{UNMARKED_QUESTION}[^,?]{{3,80}}[,?]\s+(?P<said>(?:I|I['’]m|I['’]ve|my|we|we['’]re|our)\b.{{8,}})", re.I
)

#: "Spicy food is my thing", "Golf isn't really my thing": a taste said with the thing first, as "I'm (not) into …".
_MY_THING = re.compile(
    r"(?P<what>[A-Za-z][^,.!?;:]{1,60}?) (?:is|are|'s)(?P<neg> not|n't)? (?:totally |really |definitely |so |"
    r"very much |kind of |kinda |sort of |just |also )?(?:my|our) (?:thing|jam|cup of tea)\b(?P<rest>.*)",
    re.I,
)

#: A preference said as a comparison: "Evenings are better for me", "Zoom is way better for me than Teams".
_BETTER_FOR_ME = re.compile(
    r"(?!(?:that|it|this|those|these|anything|something|everything|nothing|which|what)\b)"
    r"(?P<what>[A-Za-z][\w' -]{0,40}?) (?:is|are|works?) (?:much |way |a lot |so much |far )?"
    r"(?:better|best|easier|easiest) for me(?: than (?P<other>[^,.!?;]+))?[.!]*",
    re.I,
)


def as_said(sentence: str) -> str:
    """The user's sentence with its subject said as the rewrite reads it ("Dad ..." as "My dad ..."),
    and a statement's question to the agent, before or after it, left out."""
    if (asks := _ASKS.fullmatch(sentence)) and not _QUESTION_FIRST.match(sentence):
        sentence = asks["said"].rstrip() + "."
    elif first := _ASKED_FIRST.fullmatch(sentence):
        sentence = first["said"]
    if (thing := _MY_THING.fullmatch(sentence)) and not re.match(r"(?:it|that|this|which|what)\b", sentence, re.I):
        what = thing["what"]  # its first word kept as typed unless a function or common word ("The", "Spicy")
        common = what.split()[0].lower() in STOP or opens_with_common_word(what)
        what = what[:1].lower() + what[1:] if common else what
        sentence = f"I'm{' not' if thing['neg'] else ''} into {what}{thing['rest']}"
    if better := _BETTER_FOR_ME.fullmatch(sentence):  # "I prefer evenings", which the preference rule reads
        what = better["what"]
        what = what[:1].lower() + what[1:] if opens_with_common_word(what) else what
        sentence = f"I prefer {what}{' to ' + better['other'] if better['other'] else ''}."
    if call := CALL_ME.match(sentence):  # "Please call me Jo": the name to use, not an imperative
        sentence = f"I go by the name {sentence[call.end() :]}"
    if _KIN.match(sentence[:1].lower() + sentence[1:]) and sentence[:1].isupper():
        sentence = f"My {sentence[:1].lower()}{sentence[1:]}"
    if (their := _THEIR_S.match(sentence)) and (their["has"] or not FINITE.search(their["rest"])):
        sentence = f"{their['who']} {'has ' if their['has'] else 'is '}{sentence[their.end() :]}"
    return sentence
