"""What the user says is not to be kept: off the record, or taken back right after it was said.

"I'm seeing a therapist. Please don't remember that.", "Our Wi-Fi password is on the fridge, don't
store it", "Off the record, I'm job hunting" and "My PIN is 1234." followed by "Please forget that."
were all stored: the forget path reads a request to forget something named ("forget my address"), and
a bare "that" names nothing, so its guard refuses it (it may be a plan dismissed: "Forget that, let's
do Paris"). Said right after the user's own statement, the pointer can only mean that statement. So
the statement is never extracted: a sentence marked off the record, one with a "don't store it" of
its own, the sentence a "Please don't remember that" follows, or (a whole message that only takes
back) the facts of the user's message just before it in the session. Nothing is stored, so nothing
has to be deleted or erased later.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tasks.models import Event, Extraction
from tasks.providers.forget_said import forget_asks
from tasks.providers.soft_requests import softened
from tasks.textrules import sentences

_KEEP = r"(?:store|save|keep|record|log|remember|note|write|jot|put|hold on to|hang on to|hold onto|hang onto|track)"
_POINTER = (
    r"(?:that|this|it|any of (?:that|this|it)|all (?:of )?that|what I (?:just )?said|"
    r"(?:that|this) last (?:bit|part|one))"
)
_WHERE = (
    r"(?:\s+(?:down|on file|in (?:your |ur )?memory|anywhere|please|pls|plz|ok|okay|thanks|either|for me|anymore|"
    r"any more|again|going forward|from now on))*"
)
_OPENER = r"(?:(?:actually|oh|hmm+|wait|also|and|but|ok|okay|so|um|uh|on second thought),?\s+)*"
#: A sentence that only takes back what was just said: "Please don't remember that.", "Actually, delete
#: that.", "can you not store that?", "Please forget I said that." Not "Don't forget it" (a reminder) nor
#: "Forget that, let's do Paris" (a plan dismissed, more said after it).
_TAKEN_BACK = re.compile(
    rf"^{_OPENER}(?:(?:please|pls|plz|just|kindly)\s+)?(?:"
    rf"(?:can|could|would|will) (?:you|u) (?:please |pls |just )?(?:not|never) {_KEEP}|"
    rf"(?:don't|do not|dont|never) {_KEEP}|"
    r"(?:forget|delete|erase|remove|scratch|strike|wipe|drop|unsave) (?:(?:I|i) (?:just )?said (?=that|it|this))?)"
    rf"\s*{_POINTER}?{_WHERE},?\s*(?:please|pls|plz)?\s*[.!?]*$",
    re.I,
)
#: Kept, as a wish says it: "I don't want that remembered", "… this in memory", "… it on file".
_KEPT = (
    r"(?:(?:to be |being |be |get )?(?:stored|saved|kept|recorded|logged|remembered|noted(?: down)?|written down)"
    r"|in (?:your |ur )?memory|on (?:file|record))"
)
#: "I (really) don't want <it> in memory / remembered", at a sentence's start or after its statement.
_NOT_WANTED = r"I(?: really| just| honestly)? (?:don't|do not|dont|not|never|wouldn't|would not) want"
#: The same asked as what the user wants: "I don't want this in memory", "I not want it recorded", "I'd rather
#: that not be remembered", "I would prefer this not be saved"; nothing may follow the place but a filler
#: ("I don't want it stored in the garage" is about the bike). "I'd rather you not remember that" is
#: softened into "Please don't remember that" (:func:`softened`).
_WISHED = re.compile(
    rf"^{_OPENER}(?:{_NOT_WANTED} {_POINTER} {_KEPT}"
    rf"|I(?:'d|d| would)(?: really| much)? (?:rather|prefer) {_POINTER} (?:not|never) {_KEPT})"
    rf"{_WHERE},?\s*(?:please|pls|plz|ok|okay|thanks)?\s*[.!?]*$",
    re.I,
)
#: A sentence marked off the record by itself: "Off the record, …", "Just between us, …", "Don't save this,
#: but …", "…, don't store it", "… - please don't keep that on file".
_OFF_RECORD = re.compile(
    r"^\W*(?:off the record|(?:just |strictly )?between (?:us|you and me|you and I|ourselves))\b"
    rf"|^\W*(?:please\s+)?(?:don't|do not|dont) {_KEEP}(?: (?:this|it|that))?(?: down)?\s*(?:[,:;]|\bbut\b|[-–—])"
    rf"|(?:[,;:]|\s[-–—]+)\s*(?:but\s+|so\s+|and\s+)?(?:please\s+|pls\s+)?(?:don't|do not|dont) {_KEEP}\b"
    rf"(?: (?:this|it|that|any of (?:this|that|it)))?{_WHERE}\W*$"
    rf"|(?:[,;:]|\s[-–—]+)\s*(?:but\s+|so\s+|and\s+)?{_NOT_WANTED} (?:this|it|that|any of (?:this|that|it)) {_KEPT}"
    rf"{_WHERE}\W*$",
    re.I,
)

#: An agent's reply that brings up what it knew before: a pointer after it may mean that, not the message before.
_RECALLED = re.compile(
    r"\b(?:last time|previously|earlier you|before,? you|I (?:also )?(?:remember|recall|have (?:it )?on file)|"
    r"you (?:once |previously )?(?:told|said|mentioned)(?: (?:me|to me))? (?:before|earlier|last|that)|on file)\b",
    re.I,
)


def takes_back(sentence: str) -> bool:
    """``sentence`` only asks not to keep what was just said, as an order, a soft request or a wish."""
    said = sentence.strip()
    return any(p.match(said) is not None for p in (_TAKEN_BACK, _WISHED)) or (
        (plain := softened(said)) != said and _TAKEN_BACK.match(plain) is not None
    )


def on_record(event: Event) -> Event:
    """``event`` without its sentences that are not to be kept: those marked off the record, and a
    sentence a taking-back one follows (with it). A message that only takes back is left whole for
    :func:`taken_back` to read."""
    said = sentences(event.text)
    if len(said) < 2 and not (said and _OFF_RECORD.search(said[0])):
        return event
    # "Forget my phone number, don't store it": a forget request with its reason, for the forget path
    dropped = {i for i, s in enumerate(said) if _OFF_RECORD.search(s) and not forget_asks([s])}
    for i, s in enumerate(said):
        # what it takes back is a statement: after a question or a forget request ("Can you delete the bit about
        # me living in Nairobi? Don't store that.") it says the request again, for the forget path to read
        if i > 0 and takes_back(s):
            if forget_asks([said[i - 1], s]).get(0) == []:  # "I shouldn't have told you about X. Wipe it.": X was
                continue  # told before, and the pair is a forget request pointing back at it
            asked = said[i - 1].rstrip().endswith("?") or bool(forget_asks([said[i - 1]]))
            dropped |= {i} if asked else {i - 1, i}
    if not dropped or (len(dropped) == len(said) and all(takes_back(s) for s in said)):
        return event
    text = event.text
    for i in sorted(dropped, reverse=True):  # cut each from the message as typed (line breaks kept)
        at = text.rfind(said[i])
        text = text[:at] + text[at + len(said[i]) :] if at >= 0 else text
    return event.model_copy(update={"text": text.strip()})


def taken_back(events: Sequence[Event], out: Extraction) -> None:
    """A user's message that only takes back ("Please forget that.") drops the facts of the user's message
    just before it (an agent's reply between them at most), and what it made itself: the forget request of
    its pointer, or an instruction read in "don't store that"."""
    for index, event in enumerate(events):
        if event.role != "user" or not (said := sentences(event.text)) or not all(takes_back(s) for s in said):
            continue
        prev = events[index - 1] if index else None
        if prev is not None and prev.role == "agent" and _RECALLED.search(prev.text):
            continue  # "I remember you're vegan." "Please forget that.": about a memory, for the forget path
        if prev is not None and prev.role == "agent" and index >= 2:
            prev = events[index - 2]
        if prev is None or prev.role != "user":
            continue
        gone = prev.id
        out.facts = [f for f in out.facts if not {gone, event.id} & set(f.source_event_ids)]  # its own: no rule
        out.forgets = [r for r in out.forgets if event.id not in r.source_event_ids]
