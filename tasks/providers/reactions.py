"""A participant's reaction to the other person: how the speaker took what was said, not a memory.

In a chat between two people most turns open with one ("Wow, that sounds awesome, Mel!", "Nice work!",
"Great to hear from you"). Stored, they fill the store with lines that match every question about
praise or feelings and cite no fact: on LoCoMo-dev, 32 memories were nothing else and 117 more carried one.
Only what opens as a reaction and judges counts, so "That's in Leeds" (an answer) and "Good flooring's
crucial" (an opinion about a thing) are kept, and anything that says a word about the speaker is kept.
"""

from __future__ import annotations

import re

from tasks.textrules import FIRST_PERSON

#: Words that judge what was just said or shown.
_JUDGED = (
    r"(?:great|good|awesome|amazing|cool|nice|neat|lovely|beautiful|wonderful|fantastic|incredible|impressive|"
    r"sweet|cute|adorable|gorgeous|stunning|breathtaking|magical|special|fun|funny|hilarious|exciting|thrilling|"
    r"intense|crazy|wild|epic|interesting|fascinating|inspiring|touching|heartwarming|rewarding|peaceful|"
    r"calming|relaxing|chill|brilliant|excellent|terrific|delightful|perfect|tough|rough|hard|awful|terrible|"
    r"sad|scary)"
)
#: A name the sentence is addressed to, at its start or its end ("Mel, that's great", "Nice one, Jon!").
_VOCATIVE = re.compile(r"^[A-Z][a-z]+(?: [A-Z][a-z]+)?,\s+|,\s+[A-Z][a-z]+(?=\W*$)")
#: A reaction to what the other person said ("Wow, that sounds awesome!", "Nice work!", "What a photo!"):
#: how the speaker took it, not a thing about anyone. It opens as a reaction and judges ("That's in
#: Leeds" answers where; "It was great to see them" describes the speaker's own day and is kept).
_REACTION = re.compile(
    r"^(?:(?:wow|oh|aw+|omg|yay|ooh|whoa|ha+|hey|yes|yeah|gosh)\W*\s*)*"
    r"(?:(?:that|this)(?:'s| is| looks| sounds| seems| must be)|(?:looks|sounds)|what an?|"
    r"nice (?:one|job|work)|good (?:job|for you|one|luck)|well done|congrat\w*|"
    rf"{_JUDGED} (?:to (?:hear|see|chat|talk|know|meet)|that you)\b|"  # "Great to hear from you", "Cool that you …"
    # a judgment alone ("So cool!", "Great pic!"); "Good flooring's crucial" says what is good
    rf"(?:so |really |such an? )?{_JUDGED}(?: (?:pic|photo|shot|one|job|work|idea|news|stuff|times?))?\W*$|"
    # what was shown, judged and nothing more: "That pic is cool!", "Your painting looks amazing!" (not "That
    # restaurant is great for kids", which goes on to say what it is good for, nor "The event was awesome",
    # the speaker's own news)
    r"(?:that|this|those|these|your)(?: [a-z]+){1,2}(?:'s| is| are| was| were| looks?| seems?)"
    rf"(?: so| really| very| super| pretty| just| absolutely)? {_JUDGED}\W*$)",
    re.I,
)
#: A judging word anywhere in it ("good" already covers "good job", "good luck").
_JUDGING = re.compile(rf"\b(?:{_JUDGED}|congrat\w*|well done)\b", re.I)


def is_reaction(sentence: str) -> bool:
    """A short reaction to another person, with no word about the speaker (``_REACTION``)."""
    bare = _VOCATIVE.sub("", sentence).strip()
    return (
        bool(_REACTION.match(bare) and _JUDGING.search(bare))
        and not FIRST_PERSON.search(bare)
        and len(bare.split()) <= 7
    )


#: A remark to the other person about them, not a thing told: a greeting after a while, a wish, sympathy
#: or praise ("Long time no see!", "Hope all's good!", "Sorry about your job", "You'd be a great counselor!").
#: Stored, it opens the turn's memory and pulls its vector toward every greeting ("Jon: Gina, hope you're
#: doing great! Took a short trip to Rome" ranked far from "Which cities has Jon visited?").
_SOCIAL = re.compile(
    r"^(?:(?:hey|hi|hello|oh|aw+|so|and)\W+)*(?:"
    r"long time no (?:see|talk|chat|speak)|it'?s been (?:a while|ages|forever|too long)|"
    r"(?:I\s)?hope (?:you|you're|you've|you'll|u|all|all's|everything|things|your|the)\b|"
    r"(?:so |really |very )?sorry (?:about|'bout|bout|to hear|for)(?!\w)|"
    r"(?:so |really |very )?proud of (?:you|u)\b|"
    r"(?:you|u)(?:'d| would|'re| are|'ll| will)(?: going to| gonna)? (?:be|make) (?:a |an |such an? |so )?"
    r"(?:great|amazing|awesome|wonderful|fantastic|incredible|brilliant|natural)\b|"
    r"(?:good|best of) luck\b|fingers crossed\b|"
    # encouragement and praise of them (round 43): "Glad you made it", "Keep up the great work!", "You're so
    # inspiring", "You really put in the work", "Your kind words mean a lot", "Sounds like you had a blast"
    r"glad (?:you|you're|you've|y'all|ya|it|that|everyone|the)\b|"
    # (praise: "keep going", "keep pushing" are advice, kept as said as round 34's "Never give up, buddy!")
    r"keep (?:it up|up the \w+ work|doing what you're doing|that \w+ going)\b|"
    rf"(?:you|u)(?:'re| are) (?:so |really |truly |such an? )?(?:{_JUDGED}|brave|strong|dedicated|talented|"
    r"enthusiastic|passionate|determined|kind|sweet)\b|"
    r"(?:you|u)(?: really| totally)? (?:put in|nailed|crushed|smashed|killed|rocked|earned|deserve)\b|"
    r"your (?:\w+ ){1,3}(?:means?|meant) (?:a lot|so much|the world)\b|"
    r"sounds like (?:you|y'all|u)\b)",
    re.I,
)


def is_social(sentence: str) -> bool:
    """A greeting, wish, sympathy or praise addressed to the other person, with no word about the speaker
    after it ("I hope you…" opens one): "Long time no see, I just got back from Peru" is kept."""
    bare = _VOCATIVE.sub("", sentence).strip()
    found = _SOCIAL.match(bare)
    if found is None or len(bare.split()) > 12:
        return False
    return not FIRST_PERSON.search(bare[found.end() :])


#: A greeting or thanks that opens a sentence and ends at a clause break, with the name or group it is
#: said to and what the thanks is for: "Hi Sam, …", "Thank you so much, Dev, …", "Hello there - …",
#: "I'm doing well, …". Its end is where what the speaker tells begins.
_PLEASANTRY = re.compile(
    r"^(?:(?:ok|okay|so|well|yes|yeah|oh|aw+|wow),?\s+)?"
    r"(?:hi|hello|hey|thanks|thank you|good (?:morning|afternoon|evening)|"
    r"I'm (?:good|fine|great|ok|okay|doing (?:well|good|great|fine|ok|okay)))"
    r"(?: (?:so much|very much|a lot|again|too|as well))?"
    r"(?:,?\s+(?:[A-Z][a-z]+|guys|everyone|all|there|friend|buddy|mate))?"
    r"(?:,? for [^,;:–—-]{1,60})?"
    r"\s*(?:[,;:]|\s[-–—])\s*(?=\S)",
    re.I,
)


def after_pleasantry(sentence: str) -> str:
    """What a sentence tells after its opening greeting or thanks ("Hi Sam, since we last talked I've
    started volunteering" → "Since we last talked I've started volunteering"); "" when nothing follows
    it ("Thanks, Sam!"). Before, such an opening dropped the whole sentence of a participant's turn."""
    found = _PLEASANTRY.match(sentence)
    rest = sentence[found.end() :].strip() if found else ""
    return rest[:1].upper() + rest[1:]
