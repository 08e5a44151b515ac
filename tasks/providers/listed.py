"""A list typed line by line: each item a sentence of its own, said with what the list is of.

Chat users write lists ("Things I can't eat:\\n1. gluten\\n2. dairy", "Allergies in our house:\\n* me -
shellfish\\n* my daughter Nora - peanuts"). Read as prose, "1." ended a sentence and left "gluten" alone
with no subject, and a "*" item was glued to the line before, so the items were lost or run together.
Here each item becomes a line of its own: with its header when it says nothing on its own ("Things I
can't eat: gluten."), alone when it is a statement of its own or the header introduces the user ("About
me:\\n- live in Austin", which the implicit-subject rule reads as "I live in Austin").
"""

from __future__ import annotations

import re

#: A list item's marker: "-", "*", "•", "1.", "2)", "a)".
_ITEM = re.compile(r"^\s*(?:[-*•·–+]|\d{1,2}[.)]|[a-h]\))\s+(?=\S)")
#: A header that introduces the user: the items are statements about them ("About me:", "Quick facts:").
_SELF = re.compile(
    r"\b(?:about (?:me|myself)|(?:quick |some |a few )?(?:facts|info|details|things|background|context)"
    r"(?: (?:about|on) me| for you)?|my (?:details|info|background|profile|stats|situation)|me)\s*[:\-]?\s*$",
    re.I,
)
#: An item that pairs a key with its value: "me - shellfish", "my daughter Nora – peanuts", "wed: dentist".
_KEYED = re.compile(r"^([^:\-–—]{1,40}?)\s+[-–—]\s+(?=\S)")
#: An item that is a statement of its own: its subject is the user or someone of theirs.
_OWN = re.compile(r"^(?:I|I['’]m|I['’]ve|I['’]d|my|we|we['’]re|our)\b", re.I)


#: A header that says what someone does with each item: "Foods I avoid", "Things my son is allergic to",
#: "Shows we watched this year". Each item reads as that statement: "I avoid pork".
_DOES_WITH = re.compile(
    r"^(?:the |some )?(?:things|stuff|[a-z]+s)\s+(?P<who>I|we|my (?:[a-z]+ )?[a-z]+)\s+(?P<does>[a-z'’ ]+?)"
    r"(?P<when>\s+(?:this|last|every|each|per|once|twice|a) [a-z]+|\s+(?:daily|weekly|regularly|now|lately))?$",
    re.I,
)
#: An item under a header about the user that opens with its verb: "live in Austin" is "I live in Austin".
_DOES = re.compile(
    r"(?:live|work|study|have|own|love|like|hate|speak|play|run|teach|drive|ride|cook|eat|drink|take|need|use)\b", re.I
)


def listed(text: str) -> str:
    """``text`` with each list item on a line of its own ending a sentence, under its header when the item
    cannot stand alone; a header that ends in ":" is not a sentence of its own."""
    if "\n" not in text:
        return text
    out: list[str] = []
    header, at = "", -1
    for line in text.split("\n"):
        marker = _ITEM.match(line)
        if marker is None:
            out.append(line)
            header, at = (line.strip(), len(out) - 1) if line.strip() else (header, at)
            continue
        if header.endswith(":") and 0 <= at < len(out):
            out[at] = ""  # "Things I can't eat:" says nothing until its items do
        item = line[marker.end() :].strip()
        item += "" if item.endswith((".", "!", "?")) else "."
        lead = header.rstrip(":;- ").strip()
        keyed = _KEYED.match(item) is not None
        item = _KEYED.sub(r"\1: ", item, count=1)  # "my daughter Nora - peanuts": a key and its value
        does = _DOES_WITH.match(lead)
        if does is not None and not keyed and not _OWN.match(item):  # "Foods I avoid:\n- pork"
            out.append(f"{does['who']} {does['does']} {item.rstrip('.')}{does['when'] or ''}.")
        elif _SELF.search(header):
            out.append(f"I {item}" if _DOES.match(item) else item)  # "About me:\n- live in Austin"
        elif not lead or (_OWN.match(item) and not keyed) or len(lead.split()) > 6:
            out.append(item)
        else:
            out.append(f"{lead}: {item}")
    return "\n".join(out)
