"""Sentence rules of the local extractor: what a sentence says, under which topic and slot.

Each rule maps a first-person sentence to a third-person fact. Slots ("employer", "location",
"preference:drink") let the consolidator tell a contradiction from a new fact.
"""

from __future__ import annotations

import re

from tasks.providers.about_me import about_me, nickname
from tasks.providers.dislikes import dislike
from tasks.providers.implicit_subject import STATE_OF_MIND
from tasks.providers.jobs import JOBS, started_job, with_article
from tasks.providers.places import PLACE, moved_to_place
from tasks.providers.rule_fact import RuleFact as RuleFact
from tasks.textrules import ASKS_NOW
from tasks.third_person import third_person

_NAME = r"([A-Z][\w'-]+(?: [A-Z][\w'-]+){0,2})"
_PLACE = PLACE
_TAIL = r"((?:[^.!?;]|(?:(?<=Dr)|(?<=Mr)|(?<=Mrs)|(?<=Ms)|(?<=St)|(?<=Prof))\.){2,160})"  # "Dr. Patel" whole
_AFTER_VALUE = r"\s+(?:for|because|bc|cuz|cos|since|as|like|when|after|so|but|around|about|last|this|in|on|at|\d+)\b"

#: Preference categories whose values exclude each other ("prefers tea" replaces "prefers coffee").
CATEGORIES: dict[str, tuple[str, ...]] = {
    "drink": (
        "coffee",
        "tea",
        "espresso",
        "latte",
        "oat latte",
        "flat white",
        "cold brew",
        "matcha",
        "cappuccino",
        "americano",
        "hot chocolate",
        "juice",
        "soda",
        "kombucha",
        "green tea",
        "black tea",
        "rooibos",
        "herbal tea",
        "chai",
        "mocha",
        "decaf",
    ),
    "seat": ("aisle seat", "window seat", "middle seat"),
    "diet": ("vegetarian", "vegan", "pescatarian", "keto", "gluten-free"),
    "pet": ("dogs", "cats", "birds", "parrots", "rabbits"),
    "season": ("summer", "winter", "spring", "autumn", "fall"),
    "transport": ("train", "car", "bus", "bike", "plane", "flying", "driving"),
}


def _mentions(low: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}(?:s|es)?\b", low) is not None


def category_of(phrase: str) -> str | None:
    """The lexicon category a phrase names; a capitalised word inside it is a name ("Dacia Spring"), not a value."""
    low = re.sub(r"(?<=\S )[A-Z][\w'-]*", "", phrase).lower()
    for name, words in CATEGORIES.items():
        if any(_mentions(low, w) for w in words):
            return name
    return None


def _value_in(phrase: str, category: str) -> str:
    """The most specific lexicon entry the phrase names ("oat latte" over "latte")."""
    low = phrase.lower()
    return max((w for w in CATEGORIES[category] if _mentions(low, w)), key=len)


def _strip(value: str) -> str:
    return re.sub(r"\s+(?:now|anymore|these days|lately|too|as well)$", "", value.strip(" ,.!?"), flags=re.I)


def personal(s: str, who: str) -> RuleFact | None:
    T = "user_personal_info"
    if m := re.search(rf"\b[Mm]y name(?: is|'s) {_NAME}", s):
        return RuleFact(T, f"{who}'s name is {m.group(1)}", 0.9, "name", m.group(1))
    if m := re.search(r"\bI(?:'m| am) (\d{1,3}) years old", s):
        return RuleFact(T, f"{who} is {m.group(1)} years old", 0.7, "age", m.group(1))
    if (m := re.search(rf"\bI (?:\w+ )?(?:live|am living|'m living|have lived|'ve lived|reside) in {_PLACE}", s)) or \
            (m := moved_to_place(s)):  # fmt: skip
        place = m.group(1).rstrip(".")
        return RuleFact(T, f"{who} lives in {place}", 0.8, "location", place)
    if m := re.search(rf"\bI(?:'m| am) (?:originally )?from {_PLACE}", s):
        return RuleFact(T, f"{who} is originally from {m.group(1)}", 0.7, "hometown", m.group(1))
    role = rf"(?: as (?:an? )?((?:[\w-]+ ){{0,2}}(?:{'|'.join(JOBS)})))?"
    if m := re.search(rf"\bI (?:\w+ )?(?:work|am working|'m working) (?:at|for) {_NAME}{role}", s) or started_job(s):
        job = f" as {with_article(m.group(2))}" if m.group(2) else ""
        return RuleFact(T, f"{who} works at {m.group(1)}{job}", 0.85, "employer", m.group(1))
    if m := re.search(
        rf"\b(?:I(?:'m| am) (?:now )?(?:working as )?|I (?:now )?work as |I (?:have )?worked as |years as |I became )an? ((?:[\w-]+ ){{0,2}}(?:{'|'.join(JOBS)}))\b(?: (?:at|for) {_NAME})?",
        s,
    ):
        where = f" at {m.group(2)}" if m.group(2) else ""
        return RuleFact(T, f"{who} works as {with_article(m.group(1))}{where}", 0.8, "occupation", m.group(1))
    rel = r"(wife|husband|partner|son|daughter|mom|mother|dad|father|brother|sister|dog|cat|parrot|bird|puppy|kitten|boyfriend|girlfriend|best friend)"
    if m := re.search(rf"\b[Mm]y {rel}(?:'s name is| is (?:named|called)|,) {_NAME}", s):
        return RuleFact(T, f"{who}'s {m.group(1)} is named {m.group(2)}", 0.8, f"family:{m.group(1)}", m.group(2))
    if m := re.search(
        r"\bI have (an?|one|two|three|four|five|\d+) (kids?|children|sons?|daughters?|dogs?|cats?|pets?|siblings?|brothers?|sisters?)\b",
        s,
    ):
        return RuleFact(T, f"{who} has {m.group(1)} {m.group(2)}", 0.7, f"count:{m.group(2).rstrip('s')}", m.group(1))
    if m := re.search(r"\b[Mm]y birthday is (?:on )?([^.!?,]{3,40})", s):
        return RuleFact(T, f"{who}'s birthday is {m.group(1).strip()}", 0.8, "birthday", m.group(1).strip())
    if m := re.search(r"\bI(?:'m| am) (allergic to [^.!?,]{3,60}|lactose intolerant|diabetic)", s):
        # rewritten as the speaker's words: "... but we have one anyway", "allergic to my neighbour's cat"
        return RuleFact(T, third_person(f"I'm {m.group(1).strip()}", who), 0.9, None, None)
    return None


def preference(s: str, who: str) -> RuleFact | None:
    T = "user_preferences"
    if m := re.search(r"\b[Mm]y fav(?:ou?rite|e) ([\w ]{2,30}?) (?:is|are|has to be) ([^.!?,;]{2,80}?)"
                      r"(?= and (?:my|I|I'm|our|we)\b|[.!?,;]|$)", s):  # fmt: skip
        cat, val = m.group(1).strip().lower(), _strip(m.group(2))
        return RuleFact(T, f"{who}'s favorite {cat} is {val}", 0.75, f"favorite:{cat}", val.lower())
    if m := re.search(
        r"\bI(?:'ve| have)? (?:recently |just |now )?(?:switched|changed|moved|gone) (?:over )?(?:from ([\w -]{2,40}) )?to ([\w -]{2,40})",
        s,
    ):
        # "moved to a Skoda for my car", "to green tea like 3 months ago bc ...": what follows the thing is not it.
        val, old = _strip(re.split(_AFTER_VALUE, m.group(2), maxsplit=1)[0]), m.group(1)
        cat = category_of(val) or (category_of(old) if old else None)
        if cat:
            value: str | None = _value_in(val, cat) if category_of(val) else val.lower()
            # Without the old value named, the change itself must stay in the words: "prefers tea" would not
            # tell consolidation to close "drinks coffee" (a statement of another slot).
            said = f"{who} prefers {val} (switched from {old.strip()})" if old else f"{who} has switched to {val}"
            return RuleFact(T, said, 0.8, f"preference:{cat}", value)
    if (m := re.search(r"\b(?:it's|it is) ([\w -]{2,40}?) for me (?:now|these days)", s, re.I)) and (
        cat := category_of(m.group(1))
    ):
        return RuleFact(
            T, f"{who} prefers {_strip(m.group(1))} now", 0.8, f"preference:{cat}", _value_in(m.group(1), cat)
        )
    if (m := re.search(r"\bI(?:'ve| have)? (?:gave|given|give) up ([\w -]{2,40})", s)) and (
        cat := category_of(m.group(1))
    ):
        return RuleFact(
            T, f"{who} gave up {_strip(m.group(1))}", 0.75, f"preference:{cat}", f"not {_value_in(m.group(1), cat)}"
        )
    if m := re.search(
        r"\b([A-Z][\w-]+|[\w-]+ food)(?: again)?,? (?:it's|it is|that's) (?:my|our) fav(?:ou?rite|e) ([a-z]+)", s
    ):
        return RuleFact(
            T, f"{who}'s favorite {m.group(2)} is {m.group(1)}", 0.75, f"favorite:{m.group(2)}", m.group(1).lower()
        )
    if m := re.search(
        r"\bI (always|usually|normally) (?:want|get|order|choose|pick|take|ask for) (the |a |an )?([^.!?;,]{2,80})",
        s,
    ):  # "I usually choose Thai": as often as said, the article kept ("a window seat")
        obj = _strip(m.group(3))
        cat = category_of(obj)
        return RuleFact(T, f"{who} {m.group(1)} wants {m.group(2) or ''}{third_person(obj, who)}", 0.7,
                        f"preference:{cat}" if cat else None, _value_in(obj, cat) if cat else None)  # fmt: skip
    if m := re.search(
        r"\bI(?:'ve| have)? (?:gone off|gotten tired of|got tired of|stopped liking|no longer (?:like|enjoy|listen to|eat|drink)) ([^.!?;,-]{2,60})",
        s,
    ):
        obj = re.sub(r"\s+(?:completely|entirely|totally)$", "", _strip(m.group(1)))
        cat = category_of(obj)
        if cat:
            return RuleFact(T, f"{who} no longer likes {obj}", 0.75, f"preference:{cat}", f"not {_value_in(obj, cat)}")
        return RuleFact(T, f"{who} no longer likes {obj}", 0.75, None, None)
    m = re.search(r"\bit's all ([\w -]{2,40}?) (?:now|these days)\b", s, re.I)
    if m and re.search(r"^\W*$|\bI\b", s[: m.start()]):  # not "My son doesn't like trains, it's all X now"
        return RuleFact(T, f"{who} is into {_strip(m.group(1))} now", 0.7, None, None)
    if m := re.search(r"\bI(?:'m| am) (?:now )?(?:an? )?(vegetarian|vegan|pescatarian|keto)\b", s):
        return RuleFact(T, f"{who} is {m.group(1)}", 0.85, "preference:diet", m.group(1).lower())
    # "I've been vegan for two years", "I've gone / I'm going fully vegetarian": the diet, how long or how much
    if m := re.search(r"\bI(?:(?:'ve| have) (?:been|gone|become)|(?:'m| am) going)(?: fully| strictly| mostly)? (vegetarian|vegan|"
                      r"pescatarian|keto)\b[^.!?;,]*", s):  # fmt: skip
        return RuleFact(T, third_person(m.group(0).strip(), who), 0.85, "preference:diet", m.group(1).lower())
    neg = re.search(
        r"\bI (?:don't|do not|no longer|can't stand|cannot stand|hate|dislike) (?:like |(drink |eat )|enjoy )?"
        r"(?!(?:own|have|need|want|use|drive|ride|know|get|go|live|work)\b)([^.!?;,]{2,80})",  # "don't own a car": not a like
        s,
    )  # "I don't drink coffee anymore, switched to green tea": User does not drink coffee (not "like"; not the tea)
    if neg and (cat := category_of(neg.group(2))):
        val, verb = _value_in(neg.group(2), cat), (neg.group(1) or "like ").strip()
        return RuleFact(T, f"{who} does not {verb} {_strip(neg.group(2))}", 0.75, f"preference:{cat}", f"not {val}")
    if m := re.search(
        r"\bI (?:really |absolutely |just |totally |still )?(love|like|enjoy|prefer|adore|hate|dislike) ([^.!?;]{2,120})",
        s,
    ):
        verb, obj = m.group(1).lower(), _strip(m.group(2))
        cat = category_of(obj)
        slot = f"preference:{cat}" if cat and verb in {"prefer", "love", "like", "adore"} else None
        value = _value_in(obj, cat) if slot and cat else None
        verb3 = {"love": "loves", "like": "likes", "enjoy": "enjoys", "prefer": "prefers", "adore": "adores",
                 "hate": "hates", "dislike": "dislikes"}[verb]  # fmt: skip
        return RuleFact(T, f"{who} {verb3} {third_person(obj, who, continues=True)}", 0.7, slot, value)
    if m := re.search(r"\bI(?:'m| am) (?:a )?(?:big |huge |real )?fan of ([^.!?;]{2,80})", s):
        return RuleFact(T, f"{who} is a big fan of {_strip(m.group(1))}", 0.7, None, None)
    if m := re.search(r"\bI(?:'d| would) (?:much )?rather ([^.!?;]{3,100})", s):
        return RuleFact(T, f"{who} would rather {third_person(_strip(m.group(1)), who)}", 0.6, None, None)
    return None


def _instruction(who: str, verb: str, rest: str) -> str:
    """The user's instruction as the imperative it is ("Never book the user on flights before 8am")."""
    if who != "User":
        return f"{who}'s instruction: {verb + ' ' if verb else ''}{third_person(rest, who)}"
    text = f"{verb} {third_person(rest, 'the user')}" if verb else third_person(rest, "the user")
    return text[:1].upper() + text[1:]


def instruction(s: str, who: str) -> RuleFact | None:
    T = "explicit_instructions"
    # "(can you) remind me to take my insulin at 8" is worth keeping; "remind me what my PIN is" asks now
    if m := re.search(rf"^(?:(?:please|pls|plz|can you|could you|would you) )*remind me (?!{ASKS_NOW})"
                      r"(?:to |that |about |of )?" + _TAIL, s, re.I):  # fmt: skip
        said = _strip(m.group(1)).rstrip("?")
        return RuleFact(T, f"{who} asked to be reminded: {third_person(said, who)}", 0.8, None, None)
    if m := re.search(
        r"^(?:(?:please|pls|plz|also|and|can you|could you|would you|will you|can u|could u) )*"
        r"(?:remember|keep in mind|note|make a note|take note) (?:that )?" + _TAIL,
        s,
        re.I,
    ):
        return RuleFact(T, f"{who} asked to remember: {third_person(_strip(m.group(1)), who)}", 0.9, None, None)
    # "Never book ...", not a statement with its subject left out ("Never been there", "Always wanted to")
    # nor a state of mind with "I" left out ("Don't know what to do": implicit_subject.STATE_OF_MIND)
    done = (
        r"(?!(?:been|had|gone|seen|done|heard|met|ever|got|made|thought|felt|knew|saw|went|mind|have|has|did|do|"
        rf"does|will|would|can|could|was|am|is|are|were|\w*[^e\W]ed)\b|{STATE_OF_MIND})"
    )
    if m := re.search(r"^(?:please |and )?(always|never|don't|do not) " + done + _TAIL, s, re.I):
        verb = {"don't": "never", "do not": "never"}.get(m.group(1).lower(), m.group(1).lower())
        return RuleFact(T, _instruction(who, verb, _strip(m.group(2))), 0.9, None, None)
    # "Please use British spelling", "Keep answers short please": how to answer, not a task ("Please book ...")
    style = r"(use|write|reply|respond|answer|keep|address|format|spell|talk|speak|stick to|avoid|include)"
    if (m := re.search(rf"^(?:please|pls|plz|kindly) {style} ({_TAIL[1:-1]})", s, re.I)) or (
        m := re.search(rf"^{style} ({_TAIL[1:-1]}?),? (?:please|pls|plz)\W*$", s, re.I)
    ):
        return RuleFact(T, _instruction(who, m.group(1).lower(), _strip(m.group(2))), 0.9, None, None)
    if m := re.search(
        r"^(?:(?:please|pls|plz|can you|could you|will you|would you|and) )*(stop|quit) ((?:\w+['-]\w*|\w+)ing\b[^.!?;]{2,150})",
        s,
        re.I,
    ):
        return RuleFact(T, _instruction(who, "stop", _strip(m.group(2)).rstrip("?")), 0.9, None, None)  # "Pls stop ..."
    if m := re.search(
        r"\b(?:I want you to|I'd like you to|from now on,?|make sure (?:to|you)|I (?:don't|do not|never) want you to) "
        + _TAIL,
        s,
        re.I,
    ):
        neg = "never" if re.search(r"don't|do not|never", s[m.start() : m.start(1)], re.I) else ""  # the opener's
        return RuleFact(T, _instruction(who, neg, _strip(m.group(1))), 0.9, None, None)
    return None


def decision(s: str, who: str) -> RuleFact | None:
    T = "key_conversation_details"
    if m := re.search(
        r"\b(?:I|we)(?:'ve| have)? (?:finally )?(?:decided|agreed|settled) (?:to|on|that) " + _TAIL, s, re.I
    ):
        return RuleFact(T, f"Decision by {who}: {third_person(_strip(m.group(1)), who)}", 0.7, None, None)
    if m := re.search(r"\blet's (?:go with|use|do|pick|choose|book|stick with) " + _TAIL, s, re.I):
        return RuleFact(T, f"Decision by {who}: go with {third_person(_strip(m.group(1)), who)}", 0.7, None, None)
    if m := re.search(r"\bI(?:'ll| will) (?:go with|take|choose|pick|book|stick with) " + _TAIL, s):
        return RuleFact(T, f"Decision by {who}: {third_person(_strip(m.group(0)), who)}", 0.65, None, None)
    return None


PROPOSAL = re.compile(
    r"\b(?:how about|what about|I (?:suggest|recommend)|should we|shall we|shall I|we could|would you like (?:me )?to|I can) "
    + _TAIL,
    re.I,
)
AGENT_OUTCOME = re.compile(
    r"\bI(?:'ve| have) (?:now |just )?(booked|scheduled|ordered|reserved|cancell?ed|sent|created|set up|added|updated|renewed|transferred|filed|submitted) "
    + _TAIL,
    re.I,
)
AFFIRM = re.compile(
    r"^\W*(?:yes|yeah|yep|sure|ok|okay|sounds (?:good|great|perfect)|perfect|great|let's do (?:it|that)|go (?:ahead|for it)|deal|do it|that works)\b",
    re.I,
)


def liking(s: str, who: str) -> RuleFact | None:
    """A like or a dislike the lexicon's categories name (with a slot), else a dislike of any kind of thing."""
    return preference(s, who) or dislike(s, who)


def about(s: str, who: str) -> RuleFact | None:
    """Personal info with a rule of its own here, else an age, languages or a field (:mod:`about_me`)."""
    return personal(s, who) or about_me(s, who)


RULES = (instruction, about, nickname, liking, decision)
