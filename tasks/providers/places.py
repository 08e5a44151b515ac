"""Is the X of "I moved to X" a place? A proper name or a place noun, not a shift, a version or a desk.

Kept apart from the extraction rules so that the shape test has one home and its own docstring.
"""

from __future__ import annotations

import re

#: A capitalised name of up to four words ("Cape Town, South Africa").
PLACE = r"([A-Z][\w.'-]+(?:,? [A-Z][\w.'-]+){0,3})"
_MOVED = re.compile(
    rf"\bI(?:'ve| have)? (?:just |recently |finally )?(?:(relocated)|moved(?: back| house)?) to (?:the )?{PLACE}"
    r"(?P<after>[^.!?;]*)"
)
#: Common nouns that name a place ("moved to the coast"): a fast path beside the proper-noun shape.
_PLACE_NOUNS = (
    r"((?:the |a |a new |a bigger |a smaller )(?:city|countryside|coast|suburbs|seaside|mountains|island|village))"
)


def moved_to_place(s: str) -> re.Match[str] | None:
    """ "Moved to X" states a residence only when X reads as a place: a proper name, no version number,
    and not "for my <thing>" ("moved to Helix for my editor"); "moved to the night shift", "to Python
    3.12" or "to a standing desk" are changes of something else. "Relocated" always means a place.
    """
    if m := re.search(rf"\bI(?:'ve| have)? (?:just |recently |finally )?moved to {_PLACE_NOUNS}\b", s):
        return m
    m = _MOVED.search(s)
    if m is None:
        return None
    if m.group(1):
        return re.search(rf"relocated to ((?:the )?{PLACE[1:-1]})", s)
    after = m.group("after")
    if re.match(r"\s*[\d.]*\d", after) or re.match(r"\s+(?:for|as) (?:my|the|our|a|an) (?!job|work|family)", after):
        return None
    return re.search(rf"moved(?: back| house)? to ((?:the )?{PLACE[1:-1]})", s)
