"""An answer that picks one of the alternatives a question offered: "oak or walnut worktops?" "walnut".

The reply alone says one word, too few to be kept as a statement, and its meaning is the question's:
the user chose walnut worktops. So when the question names two alternatives around "or" and the
reply's first clause is a short answer (no subject, no finite verb) naming one side and not the
other, the write path keeps a decision: "User chose walnut", after the quoted question, citing both
turns. Words said after it that have no subject of their own ("before 9 if possible") go with it.
A reply with its own subject ("I'd go with walnut") is a statement the general rules read.
"""

from __future__ import annotations

import re

from tasks.providers.clause_shape import is_short_answer, quoted_question
from tasks.providers.wording import content_words, words
from tasks.textrules import FIRST_PERSON, STOPWORDS

#: "or" between alternatives; not "or not", "or so", "or something", "or anything else".
_OR = re.compile(r"\s+or\s+(?!not\b|so\b|something\b|anything\b|else\b|whatever\b|other\b)", re.I)
#: Where an alternative ends on the way out from "or": punctuation, an article or determiner, a
#: preposition, a pronoun or the question's verb ("Shall I book | the 7:15 train | or ...").
_EDGE = words(
    """a an the my your our their his her this that these those some any for to in on at with from by of about
    i you we it they me us would will shall should could can do does did want prefer like need rather fancy
    book take choose pick get have go is are be either between which what"""
)
#: A question that asks what the user wants, so the answer is a choice, not a fact ("work or personal?").
_WANTS = re.compile(
    r"\b(?:want|prefer|like|rather|fancy|(?:shall|should) (?:I|we)|go with|pick|choose|book|which)\b", re.I
)
#: Politeness around a choice: "Window please", "the 9:40 thanks".
_POLITE = re.compile(r"[\s,]*\b(?:please|thanks|thank you|if that's ok|i think)\b[\s.!]*$", re.I)
#: A condition put on the choice ("if you can", "ideally before noon").
_CONDITION = re.compile(r"(?:\w+ )?(?:if|unless|ideally|preferably|as long as)\b", re.I)
_MAX_WORDS = 4
#: Punctuation that ends an alternative; not the colon of a time ("the 7:15 train").
_BREAK = re.compile(r"[,;?!()]|:(?!\d)")


def _side(words: list[str]) -> frozenset[str]:
    """The content words of an alternative: the words next to "or", up to an edge, at most four."""
    kept: list[str] = []
    for word in words:
        if not kept and word.lower().strip("'") in _EDGE:  # "or the window seat", "the 7:15 train or"
            continue
        if word.lower().strip("'") in _EDGE or len(kept) == _MAX_WORDS:
            break
        kept.append(word)
    return content_words(" ".join(kept))


def alternatives(question: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The two sides' distinguishing words ("a morning or evening slot" → {morning}, {evening, slot})."""
    found = list(_OR.finditer(question))
    if len(found) != 1:
        return None
    before = re.split(_BREAK, question[: found[0].start()])[-1].split()
    after = re.split(_BREAK, question[found[0].end() :])[0].split()
    left, right = _side(before[::-1]), _side(after)
    return (left - right, right - left) if left - right and right - left else None


def chosen(asked: str, reply: str) -> tuple[str, str] | None:
    """(the decision's wording, the rest of the reply) when ``reply`` picks one side of the question an
    answer's '(Asked by P: "Q?")' prefix quotes; None otherwise."""
    question = quoted_question(asked)
    sides = alternatives(question)
    first = re.match(r"\s*([^.!?;]*)([.!?;]*)\s*", reply)
    if sides is None or first is None:
        return None
    clauses = [c.strip() for c in re.split(r",\s+|\s+-\s+", first[1]) if c.strip()]
    if not clauses or not is_short_answer(clauses[0]) or FIRST_PERSON.search(clauses[0]):
        return None
    named = content_words(clauses[0])
    picked = [bool(named & side) for side in sides]
    if picked.count(True) != 1:
        return None
    taken = [clauses[0]]
    for clause in clauses[1:]:  # "Morning, before 9 if possible", "Morning, early if you can": of the choice
        if not _CONDITION.match(clause) and (not is_short_answer(clause) or FIRST_PERSON.search(clause)):
            break
        taken.append(clause)
    said = _POLITE.sub("", ", ".join(taken)).strip(" ,")
    head = re.sub(r"\W+$", "", said.split()[0]) if said else ""
    if head.lower() in STOPWORDS or re.search(rf"\b{re.escape(head.lower())}\b", question):  # "The 9:40", "Morning"
        said = said[:1].lower() + said[1:]
    verb = "chose" if _WANTS.search(question) else "answered:"
    rest = ", ".join(clauses[len(taken) :]) + first[2] + " " + reply[first.end() :]
    return f"{verb} {said}", rest.strip(" ,")
