"""Milestones that end a state of the user's household: a birth ends the pregnancy, a return to work the
leave, a relapse the sober streak (the job's ends are in :mod:`~tasks.providers.job_ends`).

Probe 8 (round 21): "Baby Noah arrived on Tuesday, 3.4kg!" left "User is 7 months pregnant" current, and
"Back at work part-time from Monday" left "User is on maternity leave until March", and "Had a slip last
week, back to day 1" left "User has been sober for 18 months". Each is settled
(:func:`~tasks.providers.settling.settles`), whatever their similarity, when both are the household's.
"""

from __future__ import annotations

import re

from tasks.providers.sameness import TELLING_FRAME

#: A baby born to the user's household: "Baby Noah arrived", "their daughter was born", "User gave birth to".
_BORN = re.compile(
    rf"{TELLING_FRAME}(?:(?:User|[Tt]hey|[Ww]e)(?: and User's \w+)? (?:just |finally )?(?:had|welcomed) (?:a|the|our|"
    r"their) (?:baby|son|daughter|boy|girl|twins)\b|(?:User|[Tt]hey|User's (?:wife|partner|girlfriend|fiancee))"
    r"(?: just| finally)? gave birth\b|(?:(?:User's|[Tt]heir|[Oo]ur) (?:new |baby )?(?:baby|son|daughter|twins|"
    r"boy|girl)|[Bb]aby [A-Z][a-z]+|[Tt]he (?:baby|twins))(?: [A-Z][a-z]+)? "
    r"(?:(?:was|were|has been|have been|is|are) )?(?:born|arrived|here)\b)"
)
#: The user's household expecting a baby: "User is 7 months pregnant", "User's wife is due in March".
_EXPECTING = re.compile(
    rf"{TELLING_FRAME}(?:User|[Tt]hey|[Ww]e|User's (?:wife|partner|girlfriend|fiancee)|[Tt]he (?:baby|twins))"
    r"(?:['’]re| is| are)(?: \w+){0,3}? (?:pregnant|expecting|due)\b"
)
#: The user back at work: "User is back at work part-time", "User went back to work", "back at the office".
_BACK_AT_WORK = re.compile(
    rf"{TELLING_FRAME}(?:User|[Tt]hey|[Ww]e)(?:['’]re| is| are| has| have|['’]ve)?(?: just| finally| now)? "
    r"(?:(?:been |gone |went |got |come |came )?back (?:at|to) (?:work|the office|the job)|returned to work)\b"
)
#: The user away from work for a while: "on maternity leave", "off sick", "on sabbatical", "signed off".
_ON_LEAVE = re.compile(
    rf"{TELLING_FRAME}(?:User|[Tt]hey|[Ww]e)(?:['’]re| is| are| has been| have been)(?: \w+){{0,2}}? "
    r"(?:on (?:\w+ )?(?:leave|sabbatical|furlough)|off (?:sick|work)|signed off)\b"
)

#: The user or their household as a fact's subject, after the telling's frame.
USER = rf"{TELLING_FRAME}(?:User|[Tt]hey|[Ww]e)"
#: A streak of the user's going without: "has been sober for 18 months", "is 6 months clean", "hasn't had a
#: drink in two years", "has been smoke-free for a year", "is teetotal", "doesn't drink", "quit smoking".
_STREAK = re.compile(
    rf"{USER}(?:['’]ve| has| have|['’]re| is| are)?(?: been)?(?: \w+){{0,2}}? (?:sober|smoke-free|alcohol-free|"
    r"vape-free|teetotal|a non-smoker|(?:(?<=days )|(?<=weeks )|(?<=months )|(?<=years ))(?:clean|dry)|"
    r"(?:clean|dry)(?= for| since))\b|"
    rf"{USER} (?:hasn't|haven't|has not|have not) (?:had a drink|drunk|smoked|used|gambled)\b|"
    rf"{USER}(?: \w+)? (?:doesn['’]t|does not|don['’]t|do not) (?:drink|smoke)\b|"
    rf"{USER}(?:['’]ve| has| have)? (?:quit|stopped|gave up|given up) smoking\b"
)
#: The streak ends: "had a slip", "relapsed", "back to day 1", "started smoking again", "used again", "has been
#: smoking again", "started having the odd glass of wine again". Said after an opening adverb too.
_RELAPSE = re.compile(
    rf"{TELLING_FRAME}(?:[A-Z][a-z]+ly,? )?(?:User|[Tt]hey|[Ww]e)(?:['’]ve| has| have| is| are)?(?: just| been)? "
    r"(?:had a (?:slip|relapse)|slipped up|relapsed|fell off the wagon|"
    r"(?:started|began) (?:smoking|drinking|vaping|using|gambling) again|(?:smoked|drank|used|vaped|gambled) again|"
    r"(?:smoking|drinking|vaping|gambling) again|(?:started |been )?(?:having|had) (?:the odd|a|an occasional) "
    r"(?:glass|drink|pint|beer)(?: of \w+)? again|back on the (?:booze|wine|beer|cigarettes|cigs|fags)|"
    r"(?:is |are |['’]re |went )?back to (?:day (?:1|one|zero)|square one))\b"
)


def milestone_ends(fact: str, said: str) -> bool:
    """``fact`` is a milestone of the user's household that ends the state ``said`` tells."""
    return (
        bool(_BORN.match(fact) and _EXPECTING.match(said))
        or bool(_BACK_AT_WORK.match(fact) and _ON_LEAVE.match(said))
        or bool(_RELAPSE.match(fact) and _STREAK.match(said))
    )


def named_in(found: re.Match[str], said: str, *groups: str) -> bool:
    """Whom or where ``found`` names (the first of ``groups`` it has), if anyone, is named in ``said`` too: an
    employer left, the person broken up with (by a short of their name too)."""
    named = next(filter(None, map(found.groupdict().get, groups)), None)
    # a name of three letters or more may be the short of the one said ("Rafa" for "Rafael")
    short = r"[a-z]*" if named is not None and len(named) >= 3 and " " not in named else ""
    return named is None or re.search(rf"\b{re.escape(named)}{short}\b", said) is not None
