"""Deterministic text rules for the local extractor: sentences, clauses, content words, third person.

Pure functions; no model. Relative dates are resolved in :mod:`tasks.relative_dates`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.plural import PARTNER

# Re-exported: the date rules lived here until round 37, and the write path reads them with the rest.
from tasks.relative_dates import WEEKDAYS as WEEKDAYS
from tasks.relative_dates import fmt_date as fmt_date
from tasks.relative_dates import resolve_dates as resolve_dates
from tasks.wordnet import index_lemmas

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: A piece ending in one of these continues into the next one ("Dr. Smith", "e.g. hiking", "J. Smith",
#: "the U.S. army"); "No." only before a number ("No. 5").
_ABBREVIATION = re.compile(r"(?:\b(?i:Dr|Mr|Ms|Mrs|St|Prof|Jr|Sr|vs|etc|approx|cf|e\.g|i\.e)|\b[A-HJ-Z]|\w\.\w)\.$")
_NUMBER_SIGN = re.compile(r"\b[Nn]o\.$")
_CLOCK = re.compile(r"\b[ap]\.m\.$", re.I)
_OPENS_SENTENCE = re.compile(r"[\"'A-Za-z0-9]")


def sentences(text: str) -> list[str]:
    """Split text into sentences, also where chat starts one in lower case ("...tofu tbh. i love...");
    a piece that ends in an abbreviation or an initial is joined to the next, and one that opens with a
    bracket or a symbol to the one before."""
    out: list[str] = []
    for piece in (p.strip() for p in _SENTENCE.split(text)):
        if not piece:
            continue
        # A piece that opens with a bracket or a symbol belongs to the sentence before it ("[shares a photo: ...]").
        if out and (_continues(out[-1], piece) or not _OPENS_SENTENCE.match(piece)):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def _continues(before: str, piece: str) -> bool:
    """``before`` ends in an abbreviation or an initial ("Dr.", "J."), in "No." before a number, or
    trails off ("...") into a lower-case word. Only its end is read: a long run of joined pieces (a code
    listing, 2,000 bullet lines) would otherwise be scanned whole for each piece."""
    before = before[-24:]
    if before.endswith(("...", "…")) and piece[:1].islower():
        return True
    if _CLOCK.search(before) and piece[:1].isupper():  # "at 5 p.m. Then I left"
        return False
    return bool(_ABBREVIATION.search(before) or (_NUMBER_SIGN.search(before) and piece[:1].isdigit()))


#: What a chat export writes after a message's words about what came with it: "[shares a photo: …]",
#: "[attached: plan.pdf]", "(roughly)", "<image>"; one or more, at the very end.
_TRAILING_NOTES = re.compile(r"(?:\s*(?:\[[^\[\]]*\]|\([^()]*\)|<[^<>]*>))+\s*$")


def without_notes(sentence: str) -> str:
    """``sentence`` without the bracketed notes at its end: "How often? [shares a photo: …]" asks "How often?"."""
    return _TRAILING_NOTES.sub("", sentence).rstrip()


#: An offer of help asks nothing about the person ("Good morning - how can I help?"): no context for an answer.
HELP_OFFER = re.compile(
    r"\b(?:how can I help|how may I help|what can I do for you|anything else|can I help you with|what's up|"
    r"what's on your mind|how can I assist)\b",
    re.I,
)


def last_question(text: str) -> str | None:
    """The last question a turn asks, its trailing notes left out; not an offer of help."""
    said = (without_notes(s) for s in sentences(text))  # "How often? [shares a photo: …]" asks "How often?"
    questions = [clean(q) for q in said if q.endswith("?") and not HELP_OFFER.search(q)]
    return questions[-1] if questions else None


#: A memory that quotes the question it answers: '(Asked by P: "Q?") A' (see the extractor's ``question_to``).
ASKED = re.compile(r'\(Asked by [^:()"]*: "([^"]*)"\)\s*')


def unlabelled(text: str) -> str:
    """``text`` with quoted questions shown without their "Asked by" label: '(Asked by P: "Q?") A' → '(Q?) A'."""
    return ASKED.sub(r"(\1) ", text)


#: Contractions typed without their apostrophe ("dont", "im"); only words that are nothing else
#: ("cant", "wont" and "ill" are words too, but "cant" / "wont" are rare enough in chat to read as
#: contractions; "ill", "id", "were" and "its" are left alone).
_BARE_CONTRACTIONS = {
    "dont": "don't", "didnt": "didn't", "doesnt": "doesn't", "cant": "can't", "wont": "won't", "isnt": "isn't",
    "arent": "aren't", "wasnt": "wasn't", "werent": "weren't", "havent": "haven't", "hasnt": "hasn't",
    "hadnt": "hadn't", "couldnt": "couldn't", "wouldnt": "wouldn't", "shouldnt": "shouldn't", "im": "I'm",
    "ive": "I've",
}  # fmt: skip
_BARE = re.compile(r"\b(" + "|".join(_BARE_CONTRACTIONS) + r")\b", re.I)
#: "i" typed in lower case, alone or contracted ("i'm"), not "i.e." or a list marker "i)".
_LOWER_I = re.compile(r"(?<![\w'])i(?=(?:'(?:m|ve|d|ll))?(?:\s|$|[,!?;:]|\.(?!\w)))")
#: "So" as opening filler, not the "So" of "So far" ("So far it's been great" was "Far it's been great").
SO_FILLER = r"so(?! far\b)"
#: Filler that opens a chat sentence, and filler that closes one.
_LEADING_FILLER = re.compile(
    rf"^(?:(?:{SO_FILLER}|well|oh|ah|hey|haha|hmm|um|yeah|yes|wow|lol|ok|okay|(?:just )?fyi|btw|by the way|tbh|"
    r"to be honest|just so you know|anyway|anyways)[,!.:]?\s+"
    # asides that open a point with or without a mark: "fwiw im colorblind", "ngl - I'm nervous"
    r"|(?:fwiw|ngl)(?:\s*[,!.:;–—-]+\s*|\s+)"
    # an interjection before the point: "Ugh, my flight got cancelled", "Yay! Got the flat"
    r"|(?:ugh+|yay+|phew|argh+|woo+hoo+|woo+|whoa|yikes|geez|jeez|gosh|omg|damn|dang|darn|"
    r"hooray|hurray|sigh|ouch|eek|erm|er|oh (?:no|well|man|boy|dear)|man|dude|welp|"
    r"whoops|oops|sheesh|shoot|alas|ahem|aha|yo|bruh|lmao|imo|smh|"
    # and by their shape: a vowel run then "h" ("meh", "huh", "duh"), drawn-out sounds ("aww", "eww", "oof",
    # "whew", "hmm", "pfft"), laughter ("hahaha", "hehe"). Not a "yes" or "no" ("yup", "nah", "nope"): to a
    # participant's question that is the answer; the user's own path drops it (user_clauses).
    r"(?!nah\b)[bdhmp]?[aeiou]{1,2}h+|a+w+|e+w+|o+f+|wh?e+w+|h+m+|p+f+t+|(?:ha){2,}h?|(?:he){2,}h?)"
    r"\s*[,!.:;–—-]+\s*"
    # a plea before the point, asking nothing of the assistant: "Don't get me wrong, I love it", "Don't judge me
    # but I ate the whole cake", "Don't tell anyone but I'm pregnant", "No offense, but ..."
    r"|(?:(?:please )?(?:don't|do not) (?:get me wrong|judge(?: me)?|laugh(?: at me)?|hate me|freak out|panic|"
    r"be (?:mad|angry|upset)(?: at me| with me)?|worry|tell anyone|tell anybody)|no offen[cs]e)"
    r"(?:\s*[,!.:;–—-]+\s*(?:but\s+)?|\s+but\s+)"
    # an aside before the point: "Forgot to say, the kids are 5 and 8", "Before I forget, ..."
    r"|(?:I )?forgot to (?:say|mention|tell you)(?: this| that)?\s*[,:;–—-]+\s*|before I forget\s*[,:;–—-]+\s*"
    # a topic before the point: "Work wise, ...", "Health-wise: ..." (not "Otherwise")
    r"|(?!otherwise\b)[a-z]+[- ]?wise\s*[,:;–—-]+\s*"
    # an announcement before the point: "Bad news, ...", "Quick one - ...", "Update: ..."
    r"|(?:(?:bad|good|great|sad) news|quick (?:one|update|question|q|note)|update|heads up|hi|hello|hiya|"
    r"(?:good )?(?:morning|afternoon|evening))"
    r"\s*[,!.:;–—-]\s*)+",
    re.I,
)
_TRAILING_FILLER = re.compile(
    r"(?<!\beven)(?<!\bas)[,\s]+(?:tbh|lol|haha|fyi|btw|lmao|though|anyway|anyways)(?=[.!?]*$)"
    # an apology that closes a statement ("typing is slow sorry"), not one that is the statement ("I'm so sorry")
    r"|(?<=\w)(?<!\bso)(?<!\bam)(?<!'m)(?<!\bvery)(?<!\breally)(?<!\bfeel)(?<!\bfelt)(?<!\bbe)(?<!\bis)(?<!\bwas)"
    r"(?<!\bnot)(?<!\btoo)(?<!\bare)(?<!\bsay)(?<!\bsaid)[,\s]+sorry(?=[.!?]*$)"
    r"|(?<=\w) (?:btw|fyi|tbh|lol|haha)(?=[,;] )"  # and at a clause's end inside one: "left btw, Tom is"
    r"|[,;]\s*(?:I )?forgot to (?:say|mention)(?: (?:it|that|this|before|earlier))?(?=[.!?]*$)",
    re.I,
)


def _contraction(m: re.Match[str]) -> str:
    word = _BARE_CONTRACTIONS[m.group(1).lower()]
    return word if m.group(1)[0].islower() or word.startswith("I") else word.capitalize()


#: "is" typed into the noun before it: "My mom's a nurse", "my birthday's on …", "my daughter's allergic to …".
_NOUN_IS = re.compile(r"\b((?:my|our) [a-z]+)'s (?=(\w+))", re.I)
#: Words a possessive's "'s" is never followed by (its noun would be): articles, prepositions, degree words;
#: not "just", "never", "always", "still" ("my mom's just left": "has").
_AFTER_IS = frozenset({"a", "an", "the", "on", "in", "at", "from", "into", "not", "really", "so", "very", "pretty",
                       "too", "quite"})  # fmt: skip


def _noun_is(m: re.Match[str]) -> str:
    """ "my mom's a" → "my mom is a"; also before an adjective that is no noun or verb ("allergic", not "vegan")."""
    after = m[2].lower()
    adjective = after in index_lemmas("adj") and after not in index_lemmas("noun") and after not in index_lemmas("verb")
    return f"{m[1]} is " if after in _AFTER_IS or adjective else m[0]


def clean(text: str) -> str:
    """A chat sentence as the extraction rules expect it: whitespace collapsed, typographic
    apostrophes straightened (phone keyboards type "I’m"), loosely typed pronouns and contractions
    written out ("i dont" → "I don't", "my mom's a nurse" → "my mom is a nurse"), filler stripped at the
    start ("so", "btw") and the end ("tbh")."""
    text = re.sub(r"\s+", " ", text.replace("’", "'").replace("‘", "'")).strip()
    text = _NOUN_IS.sub(_noun_is, _LOWER_I.sub("I", _BARE.sub(_contraction, text)))
    text = _TRAILING_FILLER.sub("", _LEADING_FILLER.sub("", text))
    text = re.sub(r"^lets\b", "let's", text, flags=re.I)  # "lets go with X" opens a proposal; mid-sentence it is a verb
    return text[:1].upper() + text[1:] if text else text


def joined(texts: Iterable[str]) -> str:
    """Sentences as one text, each ended once ("Wow!", "It was…", not "Wow!." or "It was….")."""
    return " ".join(t if t.endswith(("!", "?", "…")) else t.rstrip(".") + "." for t in (x.strip() for x in texts) if t)


def shorten(text: str, limit: int = 200) -> str:
    """Cut at a word boundary to at most ``limit`` characters."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


# -- vocabulary of the local extractor -------------------------------------------------------

_STOPWORD_TEXT = (
    "a an the and or but if so to of in on at by for with from as is are was were be been being am do "
    "does did have has had i me my we our you your he she it they them his her its their this that these "
    "those there here what which who whom how when where why not no yes yeah oh ok okay just really very "
    "too also so much many lot lots some any all can could would should will shall may might must about "
    "into over up down out then than now well still even more most such only own same again ever get got "
    "go going gonna wanna thing things stuff like im ive id ill dont cant thats its youre "
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
SMALL_TALK = re.compile(
    r"^(?:(?:ok|okay|so|well|yes|yeah),?\s+)?"
    r"(?:hi|hello|hey|thanks|thank you|bye|goodbye|good (?:morning|night|evening)|see you|take care|"
    r"how are you|i'm (?:good|fine|great|doing well)|i'm (?:back|here)(?: again)?(?=\W*$)|lol|haha|same here|me too|"
    r"no problem|you're welcome)\b",
    re.I,
)
#: Longest conversation detail of one turn (managed-topic facts stay within 200 characters).
NARRATIVE_CHARS = 300
#: Clause boundaries inside a sentence where a new first-person statement starts.
CLAUSE = re.compile(
    r",? (?:and|but|so|because|while)(?= (?:honestly |actually |now |also )?I\b)(?! I (?:are|were|both)\b)", re.I
)
#: In a user's turn, an instruction after a comma starts a clause too ("Prefer window seats, and never book
#: me on Ryanair again"); without the comma it goes on describing ("they brighten our day and always make us smile").
USER_CLAUSE = re.compile(
    rf"{CLAUSE.pattern}|, (?:and|but|so) (?=(?:please )?(?:always|never|don't|do not)\b(?! mind\b))", re.I
)
#: A sentence's subject that is a pair with the speaker: "My partner and I just adopted ...".
_PAIR_FIRST = re.compile(rf"{PARTNER}|[Mm]e")


def clauses(text: str, boundary: re.Pattern[str] | None = None) -> list[str]:
    """``text`` split at ``boundary`` (where a new first-person statement starts: :data:`CLAUSE`), but
    not inside a subject that pairs someone with the speaker ("My partner and I just adopted a
    greyhound", "Me and my brother are driving")."""
    parts = (boundary or CLAUSE).split(text)
    if len(parts) > 1 and _PAIR_FIRST.fullmatch(parts[0].strip()) and re.match(r",? and ", text[len(parts[0]) :]):
        parts[:2] = [f"{parts[0]} and {parts[1].lstrip()}"]
    return [p.lstrip() for p in parts]


#: Rule output that only points back ("go with that") carries nothing worth storing.
VAGUE = re.compile(
    r"(?:: |^(?:never|always) \w+ )(?:go with )?(?:that|it|this|them|so)\W*$"
    # "i hate them" after "never suggest protein shakes": a feeling about a pronoun names nothing
    r"|^\w+ (?:likes|loves|hates|prefers|enjoys|dislikes|adores) (?:that|it|this|them|those|these)\W*$",
    re.I,
)
#: The date :func:`resolve_dates` appends to "today"/"tonight": the speaker's time, not information of its own.
RESOLVED_DATE = re.compile(r"\s*\(\d{1,2} [A-Z][a-z]+ \d{4}\)")
#: How a direct question to the agent opens: a question word and its verb ("whats", "what should", "where
#: do", "how can", "is it", "should I"); "What I love most is …", "Which is why …" and "How lucky am I" are
#: not asked.
UNMARKED_QUESTION = (
    r"(?:what(?:['’]?s\b| is| are| should| would| do| does| can| could| kind of| sort of)"
    r"|(?:where|how|why|when) (?:do|does|did|should|can|could|would|is|are)"
    r"|how (?:much|many|long|often) (?:do|does|should|is|are|can|would)"
    r"|which (?:(?:is|are)(?! why)|one|should|would)|who (?:is|should|can|do)"
    r"|is (?:it|there|that)|are there|should (?:I|we)|can (?:I|we))\b"
)
#: What "remind me …" asks when it asks what is known now: "remind me what my PIN is", "… whats my gym code",
#: "… how much I paid" (not "remind me what to pack" or "… what I need for the dentist": things to do).
ASKS_NOW = r"(?:what|who|which|where|how|whether)(?:'s|s)?\b(?! to\b| I (?:need|have to|should|must|got to)\b)"
#: A request for the agent to do something now ("Write me a haiku") is a task, not a memory.
REQUEST = re.compile(
    rf"^(?:(?:please|pls|plz|can you|could you|would you) )*remind me {ASKS_NOW}|"
    r"^(?:please |pls |plz |can you |could you |would you |quick(?:ly)? )?(?:tell|write|give|show|explain|find|"
    r"translate|summari[sz]e|list|draft|compose|put on|play|generate|calculate|look up|search|help|read|describe|"
    r"name|recommend|suggest)"
    r"\b(?! me (?:your|about your))"
    # asked of the agent only with "can you" ("Plan is to move in May" is a statement)
    r"|^(?:please |pls |plz |can you |could you |would you )"
    r"(?:remind|plan|check|book|schedule|organi[sz]e|send|order|sort out)\b"
    # a task set without asking: "plan a party for ...", "make a playlist ..."; not "Book the 8pm one", "Order
    # a large", which answer the agent's question with a choice
    r"|^(?:please |pls |plz )?(?:plan|organi[sz]e|pick|choose|brainstorm|come up with|create|build|design|prepare"
    r"|make(?! a (?:quick )?note)|draft)(?: me| us)? (?:a|an|some|the|something|\d+)\b"
    # ideas asked for with a noun: "gift ideas for my bf ...", "names for my new puppy?" (not "My ideas for ...")
    r"|^(?!(?:my|our|his|her|their|your|the)\b)(?:[\w'-]+ ){0,2}(?:ideas|suggestions|recommendations|recs|tips"
    r"|advice|names|options)(?: for| on)\b"
    # a question typed without any "?": "whats the best way to …", "where do i even start", "how do I build …"
    # ("What do you think of these? [shares a photo: …]" keeps its photo)
    rf"|^(?=[^?]*$){UNMARKED_QUESTION}",
    re.I,
)
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|me|we|our|us|mine)\b", re.I)


def content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9']+", text.lower()) if w.strip("'") not in STOPWORDS and len(w) > 1]
