"""Events that end a state of the user's: a break-up ends the relationship, a debt paid off the debt, an
injury healed the injury, and a stance turned round the stance ("back eating meat", "started running and I
love it now" after "I hate running").

Probes 9 and 10 (round 22): "we broke up last week" left "User and User's boyfriend Tom have been together 3
years" current, "paid the car loan off early!" left the loan, and "finger's healed, back on the wall" left
"User tore a finger pulley so no climbing for a couple months". Each is settled
(:func:`~tasks.providers.settling.settles`) when both are the user's and they name the same thing: the
person (when the break-up names one), a word of the debt, the part of the body.
"""

from __future__ import annotations

import re

from tasks.providers.milestones import named_in
from tasks.providers.sameness import TELLING_FRAME
from tasks.providers.wording import content_words

_HAS = r"(?:['’]ve| have| has|['’]re| is| are)?"
_NAME = r"[A-Z][a-z]+"
#: The user's relationship: "User and User's girlfriend Ana have been together 2 years", "User is seeing a
#: guy called Marco", "User is married to Dan", "They've been dating since May".
_TOGETHER = re.compile(
    rf"{TELLING_FRAME}(?:User(?: and (?:User's \w+ )?{_NAME})?|[Tt]hey|[Ww]e){_HAS}(?: been)?(?: \w+){{0,2}}? "
    r"(?:together|seeing|dating|going out|in a relationship|engaged|married|living together|moving in together|"
    r"(?:girl|boy)friend|partner|fianc[eé]e?)\b"
    # the one they are with, named by what they are to the user: "User's bf Rafael is visiting"
    rf"|{TELLING_FRAME}User's (?:bf|gf|boyfriend|girlfriend|partner|fianc[eé]e?|husband|wife|other half)\b"
)
#: The user's break-up, and with whom when said: "User and Ana split up", "User split up with Marco",
#: "They broke up", "User and Dan are getting divorced".
_BROKE_UP = re.compile(
    rf"{TELLING_FRAME}(?:User(?: and (?:User's \w+ )?(?P<with>{_NAME}))?|[Tt]hey|[Ww]e){_HAS}(?: just| finally|"
    r" officially| getting)? (?:broke(?:n)? up|split(?: up)?|separated|separating|divorced|called it (?:off|quits)|"
    rf"ended (?:it|things))(?: with (?:User's \w+ )?(?P<other>{_NAME}))?\b"
)
#: The other one ended it: "Lou dumped User", "Ben broke up with User".
_LEFT_USER = re.compile(
    rf"{TELLING_FRAME}(?P<who>{_NAME}) (?:just )?(?:dumped|left|broke up with|split up with|ended (?:it|things) with|"
    r"finished with) User\b"
)
#: A debt of the user's: "User has a student loan of £14,000", "User took out a car loan".
_DEBT = re.compile(r"\b(?:loans?|mortgage|debts?|credit card|overdraft|finance|arrears|owes?|owed)\b", re.I)
#: The user (or household) as subject, after an opening adverb ("Weirdly User has started running").
_USERS = rf"{TELLING_FRAME}(?:[A-Z][a-z]+ly,? )?(?:User|[Tt]hey|[Ww]e)\b(?!['’]s\b)"
#: The user paid a debt off: "User finally paid off User's student loan", "User paid the car loan off early".
_PAID_OFF = re.compile(
    rf"{_USERS}{_HAS}(?: \w+ly| just| finally)? (?:paid|cleared) (?:off |back )?(?P<what>[^,.;!?]+?)"
    r"(?: off)?(?:[,.;!?]|$| (?:early|today|yesterday|at last|in|on|last)\b)"
    # the debt as subject: "User's credit card's paid off", "the mortgage is finally paid off"
    rf"|{TELLING_FRAME}(?:User's |[Tt]he |[Tt]heir )(?P<debt>[\w -]+?)(?:['’]s| is| are| has been| have been|)"
    r"(?: \w+ly| all| now)* (?:paid off|cleared)\b"
)
#: An injury of the user's: "User sprained User's ankle", "User tore a finger pulley", "on crutches".
_INJURED = re.compile(
    r"\b(?:sprain(?:ed)?|broke|broken|tore|torn|fractured?|injured|hurt|pulled|twisted|dislocated|strained|"
    r"surgery|operation|crutches|cast|sling|brace|stitches|bad|sore|aching|injury|pain|painful)\b"
)
#: The user's part of the body healed: "User's ankle's healed", "User's knee has fully healed", "User is
#: fully recovered from the knee surgery". Not "User's dad's hip has healed".
_HEALED = re.compile(
    rf"{TELLING_FRAME}(?:User's (?P<part>[a-z]+)(?:['’]s| is| has| have| are)(?: (?:\w+ly|much|all|now))*(?: been)? "
    r"(?:healed|mended|better|recovered|fine|ok|okay|good as new)"
    rf"|(?:User|[Tt]hey){_HAS}(?: \w+ly)? (?:recovered|healed) from (?P<from>[^,.;!?]+))"
)


def _breaks_up(fact: str, said: str) -> bool:
    """A break-up of the user's ends their relationship, with the person it names if it names one."""
    broke = _BROKE_UP.match(fact) or _LEFT_USER.match(fact)
    if broke is None or _TOGETHER.match(said) is None:
        return False
    return named_in(broke, said, "with", "other", "who")


def _pays_off(fact: str, said: str) -> bool:
    """A debt paid off ends the debt the user said they had, when a word of it is the same ("student loan")."""
    paid = _PAID_OFF.match(fact)
    if paid is None or _DEBT.search(said) is None or re.match(_USERS, said) is None:
        return False
    return bool(content_words(paid["what"] or paid["debt"]) & content_words(said))


def _heals(fact: str, said: str) -> bool:
    """An injury healed ends the user's injury of the same part (or what they recovered from)."""
    healed = _HEALED.match(fact)
    if healed is None or _INJURED.search(said) is None or re.match(rf"{_USERS}|{TELLING_FRAME}User's", said) is None:
        return False
    what = healed["part"] or healed["from"]
    return bool(content_words(what) & content_words(said))


#: A diet without meat: "User is vegetarian", "User has been vegan for two years".
_NO_MEAT = re.compile(
    rf"{_USERS}{_HAS}(?: been)?(?: \w+ly)? (?:an? )?(?:vegetarian|vegan|veggie|pescatarian|plant-based)\b"
)
#: The user eats meat again: "User is back eating meat", "User eats meat again", "User started eating meat",
#: "the vegetarian thing didn't stick", "User gave up being vegan".
_MEAT_AGAIN = re.compile(
    r"\b(?:back (?:on |to )?(?:eating )?(?:meat|chicken)|eat(?:s|ing)? (?:meat|chicken|beef|pork|bacon|steak|lamb) "
    r"(?:again|now)|(?:started|starting) eating (?:meat|chicken|beef|pork|bacon|steak|lamb)"
    r"|(?:vegetarian|vegan|veggie|pescatarian)(?: thing)? (?:didn't|did not|never) (?:stick|last|work)"
    r"|(?:gave up|given up|quit|stopped) being (?:an? )?(?:vegetarian|vegan|veggie|pescatarian))\b",
    re.I,
)
#: A dislike of the user's, and what of: "User hates running, always have", "User can't stand yoga".
_DISLIKES = re.compile(
    rf"{_USERS}(?: really| always| just)? (?:hates?|can['’]t stand|cannot stand|dislikes?|(?:doesn['’]t|does not|"
    r"don['’]t|do not) (?:really )?(?:like|enjoy)|(?:isn['’]t|is not|aren['’]t|are not) (?:into|a fan of)|"
    r"never liked) (?P<what>[^,.;!?]+)"
)
#: The user took to it after all: "User has started running", "User loves swimming now", "User got into yoga".
_TOOK_TO = re.compile(
    rf"{_USERS}{_HAS}(?: \w+ly| actually| now)? (?:started|taken up|took up|getting into|got into|gotten into|"
    r"loves?|enjoys?|is loving|likes?|is into) (?P<what>[^,.;!?]+)"
)


def _reverses(fact: str, said: str) -> bool:
    """A stance of the user's turned round: eating meat again after a meat-free diet; taking to what they
    said they disliked (the same thing by a word of it)."""
    # the user's own, said with or without a subject ("User mentioned that eating meat again these days");
    # drinking or smoking again ends going without as a relapse does (milestones)
    own = re.match(_USERS, fact) or re.match(rf"{TELLING_FRAME}(?:[a-z]|[A-Z][a-z]+ing\b)", fact)
    if own and _MEAT_AGAIN.search(fact) and _NO_MEAT.match(said):
        return True
    took, disliked = _TOOK_TO.match(fact), _DISLIKES.match(said)
    return bool(took and disliked and content_words(took["what"]) & content_words(disliked["what"]))


def ends(fact: str, said: str) -> bool:
    """``fact`` is an event of the user's that ends the state ``said`` tells."""
    return _breaks_up(fact, said) or _pays_off(fact, said) or _heals(fact, said) or _reverses(fact, said)
