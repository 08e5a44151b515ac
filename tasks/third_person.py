"""A first-person statement rewritten about its speaker: "I love my dog" → "Ann loves Ann's dog".

Every memory of the local extractor is written this way, so a grammar slip here shows in every recall
("User heards a song", "User need a break"): the verb after "I" is conjugated unless it is a past form
(the English irregular verbs as a whole, or "-ed"), a modal or a negated auxiliary that reads the same.
"""

from __future__ import annotations

import re

from tasks.plural import PARTNER, households

_VERB_S = {"go": "goes", "do": "does", "have": "has", "watch": "watches", "teach": "teaches",
           "fix": "fixes", "miss": "misses", "wish": "wishes", "relax": "relaxes", "catch": "catches"}  # fmt: skip
#: Negated auxiliaries whose third person differs ("I haven't" → "hasn't"); the others read the same.
_NEGATED_S = {"have": "has", "are": "is", "do": "does"}
#: Verbs that end in "-ly" (any other "-ly" word after "I" is an adverb: "I honestly prefer").
_LY_VERBS = "apply|rely|reply|supply|comply|imply|multiply|fly|ally|bully|rally|tally|dally|sully|belly|jelly"
#: An adverb between "I" and its verb; the verb after it is the one conjugated.
_ADVERB = (
    r"(?:no longer|usually|always|never|ever|once|really|also|still|often|sometimes|just|even|only|now|rarely|"
    r"seldom|kinda|sorta|"
    rf"(?!(?:{_LY_VERBS})\b)[a-z]+ly)"
)
#: Words after "I" that are not a present-tense verb to conjugate: past forms (the English irregular
#: verbs as a whole, not a list fitted to test cases), modals, fillers and conjunctions.
_IRREGULAR_PAST_TEXT = """\
    arose awoke was were bore beat became began bent bet bid bit bled blew broke bred brought built burnt burst
    bought cast caught chose clung came cost crept cut dealt dug dove did drew dreamt drank drove dwelt ate fell fed
    felt fought found fled flung flew forbade forgot forgave froze got gave went ground grew hung had heard hid hit
    held hurt kept knelt knew laid led leant leapt learnt left lent let lit lost made meant met mistook paid put
    quit rode rang rose ran said saw sought sold sent set shook shed shone shot shrank shut sang sank sat slew slept
    slid slung slit smelt sped spelt spent spilt spun spat split spoilt spread sprang stood stole stuck stung stank
    strode struck strung strove swore swept swam swung took taught tore told thought threw thrust trod understood
    underwent undertook upset woke wore wove wed wept won wound withdrew wrung wrote overcame overheard overslept
    overtook oversaw mislaid misled misunderstood foresaw foretold withheld withstood beheld befell bade bound"""
_OTHER_NOT_VERBS = """
    can could will would should shall may might must ought am gotta gonna wanna kinda sorta mean not no nor
    finally recently actually already and or but so to in at on for with from as the a an if when then too alone
    both either neither myself themselves"""
IRREGULAR_PAST = frozenset(_IRREGULAR_PAST_TEXT.split())
#: The base form of the irregular pasts a plan is carried out with ("bought" for "planning to buy").
IRREGULAR_BASE = dict(
    pair.split(":")
    for pair in """bought:buy got:get began:begin took:take went:go sold:sell found:find made:make had:have
    built:build paid:pay left:leave won:win met:meet saw:see did:do gave:give wrote:write ran:run flew:fly
    brought:bring caught:catch chose:choose drove:drive sent:send told:tell threw:throw kept:keep spent:spend
    taught:teach became:become sang:sing swam:swim ate:eat drank:drink grew:grow held:hold lost:lose sat:sit
    rode:ride broke:break forgot:forget froze:freeze hung:hang knew:know lent:lend said:say shook:shake
    stood:stand wore:wear woke:wake""".split()  # noqa: SIM905
)
#: ``VERBS_AFTER_NOUN``: past forms and modals ("held", "went", "will"): after a noun, its phrase has ended.
_NOT_VERB = VERBS_AFTER_NOUN = IRREGULAR_PAST | frozenset(_OTHER_NOT_VERBS.split())
_SUBJECT = re.compile(rf"\bI ((?:{_ADVERB} ){{0,2}})([A-Za-z]+n['’]t|[A-Za-z]+)")


#: The past forms of the few verbs that end in "-ee" ("agree"); any other "-eed" word is a base form.
_EE_PASTS = frozenset(["agreed", "disagreed", "freed", "decreed", "guaranteed", "refereed", "emceed", "peed"])


def base_form(low: str) -> bool:
    """A verb that ends like a past or a gerund but is neither: "need", "proceed"; "bring", "string"
    (an "-ing" word with no vowel before it: "doing", "going" are not said after "I")."""
    if low.endswith("eed"):
        return low not in _EE_PASTS
    return low.endswith("ing") and re.search(r"[aeiouy]", low[:-3]) is None


def _third_person_verb(verb: str) -> str:
    """A verb said by "I" as said by a named speaker: "love" → "loves"; past forms, modals, negated
    auxiliaries that read the same, and anything capitalised or not a word stay as they are."""
    low = verb.lower()
    if low.endswith(("n't", "n’t")):
        stem = low[:-3]
        return _NEGATED_S[stem] + verb[-3:] if stem in _NEGATED_S else verb
    if verb != low or len(low) < 2 or low in _NOT_VERB or (low.endswith(("ed", "ing")) and not base_form(low)):
        return verb
    if low in _VERB_S:
        return _VERB_S[low]
    if low.endswith("y") and low[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + ("es" if low.endswith(("s", "sh", "ch", "x", "z", "o")) else "s")


#: Words that take a Roman numeral ("World War I", "Part I"); not kings' names: "thanks James I will" is chat.
_NUMERAL_I = re.compile(r"\b(War|Part|Phase|Chapter|Act|Book|Volume|Type|Level|Stage|Season|Episode) I\b(?!')")


#: A subject that pairs someone with the speaker, the speaker last ("My partner and I", "Sam and I").
_PAIR = re.compile(rf"^({PARTNER}) and I\b(?!')")


def _pair_first(m: re.Match[str]) -> str:
    """The speaker first, as a memory about them reads: "User and User's partner", "User and Sam"."""
    other = m[1] if m[1].split()[0] not in ("My", "Our") else m[1][:1].lower() + m[1][1:]
    return f"I and {other}"


#: What is copied, never rewritten: an e-mail address, a web address, a handle ("sam.lee@proton.me",
#: "about.me/jordan", "@me_irl" hold a "me" that is not the speaker), a compound ("me-time", "mini-me").
_IDENTIFIER = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://)?[\w-]+(?:\.[\w-]+)+(?:/[\w./?=&%#-]*)?|@\w+|\b[Mm]e-\w[\w-]*|\b\w+-me\b"
)


#: A second verb of the speaker's after a comma, its "I" left out ("I love hiking, hate running"): verbs
#: of habit and liking that are seldom nouns ("..., work is crazy") or prepositions ("..., like a walk"),
#: and not those an imperative after a comma often uses ("..., take care", "watch out").
HABIT_VERBS = (
    "love|hate|prefer|need|want|enjoy|avoid|live|eat|miss|own|use|speak|study|teach|train|swim|ride|sleep|commute|"
    "travel|drive|cook|wear|buy|spend|skip|write|listen|visit|struggle"
)
_THEN = re.compile(rf"(, (?:{_ADVERB} )?)({HABIT_VERBS})(?= (?!(?:is|was|are|were|has|and|or)\b)[A-Za-z])")
_SPEAKER = re.compile(r"\bI\b")  # also the "I" of "I'm", "I've"
_CONDITION = re.compile(r"\W*(?:when|whenever|if|once|unless|as soon as)\b", re.I)


def third_person(text: str, name: str, *, continues: bool = False) -> str:
    """Rewrite a first-person sentence about ``name`` in the third person ("I love X" → "Ann loves X").

    ``continues``: ``text`` goes on from the speaker's own verb (a rule's object: "hiking, hate running"
    after "I love"), so a verb after a comma in it is the speaker's as well."""
    kept = _IDENTIFIER.findall(text)
    if not kept:
        return _third_person(text, name, continues)
    slots = iter(kept)  # each held out of the rewrite as a private-use character, put back in order
    return re.sub("\ue0ff", lambda _: next(slots), _third_person(_IDENTIFIER.sub("\ue0ff", text), name, continues))


def _third_person(text: str, name: str, continues: bool) -> str:
    poss = f"{name}'s"
    rules: list[tuple[str, str]] = [
        (r"\bI'm\b|\bI am\b", f"{name} is"),
        (r"\bI've\b|\bI have\b", f"{name} has"),
        (r"\bI'd\b", f"{name} would"),
        (r"\bI'll\b|\bI will\b", f"{name} will"),
        (r"\bI was\b", f"{name} was"),
        (r"\band I (are|were)\b", rf"and {name} \1"),  # "my husband and I are": the verb stays plural
        (r"\bI don't\b", f"{name} doesn't"),
        (r"\bI do not\b", f"{name} does not"),
        (r"\bmyself\b", "themselves"),
        (r"\b[Mm]y (mind|own mind)\b", r"their \1"),  # "changed my mind": not "changed User's mind"
        (r"\bmine\b", poss),
        (r"\b[Mm]y\b", poss),
        (r"\b[Mm]e\b", name),  # "Me and two friends want ..." opens a sentence
    ]
    text = _PAIR.sub(_pair_first, text)  # "My partner and I adopted" → "User and User's partner adopted"
    text = _NUMERAL_I.sub("\\1 \ue000", text)  # "World War I" is a number, not the speaker
    text = households(text)
    speaker = continues or _SPEAKER.search(text) is not None
    for pattern, repl in rules:
        text = re.sub(pattern, repl, text)
    text = _SUBJECT.sub(lambda m: f"{name} {m.group(1)}{_third_person_verb(m.group(2))}", text)
    if speaker:  # "I love hiking, hate running": the second verb is the speaker's too
        # not after a condition's comma: "When I ask for recipes, skip the life story" asks, it says no habit
        start = text.index(",") + 1 if _CONDITION.match(text) and "," in text else 0
        text = text[:start] + _THEN.sub(lambda m: m[1] + _third_person_verb(m[2]), text[start:])
    return text.replace("\ue000", "I")
