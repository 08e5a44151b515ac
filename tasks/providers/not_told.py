"""What a user's message says that is not theirs to remember: a dream, a part to play, a story's people,
someone supposed, and material pasted for the agent to work on.

Each was stored as the user's own fact: "had a dream that I was a jazz saxophonist" became "User was a
famous jazz saxophonist", "Let's do a role-play: ... I'm Captain Reyes" became "User is Captain Reyes",
"I'm writing a thriller where the detective is a recovering alcoholic" kept the detective's drinking,
"Say someone earns 70k" and a customer record pasted for homework became memories too. The user's own
part stays: "I'm writing a thriller", a dream of opening a bakery, the interview before "can you
role-play the interviewer?".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.textrules import FIRST_PERSON

#: A dream had, not one hoped for: "had the weirdest dream that", "dreamt I was", "in my dream", "Weird
#: dream:". Not "I've always dreamed of", "my dream is to", "had a dream job".
_DREAM = re.compile(
    r"\b(?:had|have|having) (?:a|an|the|this|that|such a)(?: [\w-]+){0,2} dream\b"
    r"(?! (?:job|home|house|car|team|wedding|holiday|vacation|trip|day|come)\b)"
    r"|\bdream(?:t|ed) (?:that\b|last night\b|(?:I|i|my|we)\b)|\bin (?:my|a|last night['’]s) dream\b"
    r"|^(?:(?:a|one|such a|the|so) )?(?:weird|strange|crazy|bad|odd|funny|wild|vivid) dream\b",
    re.I,
)
#: A game the agent is asked to play: from here on the message is the game, not the user.
_PLAY = re.compile(
    r"\b(?:let['’]?s|can we|could we|shall we|wanna|want to|like to|you|please|pls)(?: (?:do|try|start))?"
    r"(?: (?:a|some|another))?(?: quick| little| short)? role[- ]?play(?:ing)?\b"  # not "I use role-play at work"
    r"|^role[- ]?play(?:ing)?\b|\brole[- ]?play(?:ing)? (?:time|with me)\b"
    r"|\blet['’]?s play (?:a )?game\b|\bplay a game (?:where|in which)\b"
    r"|(?:^|\b(?:you|let['’]?s|please|pls|can you|could you|now) )pretend (?:you['’]re|you are|to be)\b"
    r"|\byou['’]?(?:re| are|ll be| will be) (?:my|the|a|an) (?!best\b|greatest\b|only\b|favou?rite\b)[\w ]{1,30}?"
    r" and I['’]?(?:m| am|ll be| will be) (?:a|an|the|[A-Z])"
    r"|\bI['’]?(?:ll| will) be (?:a|an|the) [\w ,.'’-]{1,80}?[,;] you['’]?(?:re| are|ll be| will be) (?:my|the|a|an)\b",
    re.I,
)
_STORY = (
    r"(?:(?:[\w-]+ ){0,2}(?:novel|story|stories|book|thriller|mystery|romance|screenplay|script|fanfic|fan fiction"
    r"|fic|poem|comic|saga|play|campaign|sitcom))"
)
_CHARACTER_SAID = r"(?:main |lead )?(?:character|protagonist|antagonist|hero|heroine|villain|narrator)"
#: Where a story's own people and events start: "a thriller where ...", "my novel: the protagonist ...".
_STORY_CUT = re.compile(
    rf"(?P<head>\b(?:a|an|my|the|this) {_STORY}\b)(?:['’]s)?\s*(?:,\s*)?"
    r"(?P<cut>where\b|in which\b|about (?!my\b|our\b)|whose\b|featuring\b|starring\b|set in\b|:|"
    rf"{_CHARACTER_SAID}s?\b)",
    re.I,
)
_CHARACTER = re.compile(_CHARACTER_SAID, re.I)
_WRITES = re.compile(r"\b(?:writ\w*|wrote|working on|drafting|plotting|outlining|editing)\b", re.I)
#: Someone supposed, not the user: "Say someone earns 70k", "Imagine a person who ...", "If somebody ...".
_SUPPOSED = re.compile(
    r"^(?:(?:ok|okay|so|now|hypothetically),?\s+)?(?:(?:let['’]?s say|say|suppose|supposing|imagine|assume|"
    r"hypothetically|what if)\s+(?:that\s+)?(?:someone|somebody|a person|people|one|an? (?:[\w-]+ )?(?:guy|man|woman"
    r"|friend|client|customer|patient|student|kid|child|family|couple|company|employee|person|user))"
    r"|(?:if|when)\s+(?:someone|somebody|a person)\b)",
    re.I,
)
#: Material presented for the agent to work on: "Here is an example row from my dataset: id=7, ...". An
#: email, a letter or a message shown plainly may be the user's own news ("here's my email: ..."), so only
#: a sample of one, or a kind of text that is only ever material.
_PRESENTED = re.compile(
    r"^(?:(?:ok|okay|so),?\s+)?here(?:['’]s| is| are)\b[^:]{0,60}?\b(?:(?:example|sample|test|dummy|mock|fake)\b"
    r"|(?:record|row|entry|dataset|paragraph|passage|excerpt|review|draft|essay|article|snippet|code|json|csv"
    r"|output|log|transcript|abstract)s?\b)[^:]*:",
    re.I,
)
#: A request to work on a text: what it quotes is the text, not the user's news.
_WORK = re.compile(
    r"\b(?:summari[sz]e|translate|proofread|rewrite|re-?word|rephrase|paraphrase|shorten|tl;?dr|tone of"
    r"|(?:check|correct|fix|improve|edit) (?:the |my |this )?(?:grammar|spelling|sentence|text|paragraph|wording)"
    r"|(?:analy[sz]e|explain|critique|grade|format|parse|respond to|reply to) (?:this|the following)\b)",
    re.I,
)
_QUOTED = re.compile(r"(?:(?<=^)|(?<=[\s:(=]))(?:'(?=\S)(?:[^']|'(?=\w))*?\S'(?=$|[\s.,!?;:)])|\"[^\"]+\"|“[^”]+”)")


#: The user quoting their own words: "I told my manager 'I quit'", "I wrote 'I love you' on the card".
_OWN_WORDS = re.compile(
    r"\bI (?:just |finally |then |always )?(?:said|say|told|tell|texted|wrote|messaged|emailed|replied|answered"
    r"|yelled|shouted|asked|posted)\b[^'\"“.!?]{0,40}$"
)


def _someone_elses(quote: str, before: str) -> bool:
    """A quote in the first person that is not the user telling: a phrase to translate, a test string, a
    character's line, a commit message. Not a title ("I Will Survive") nor the user's own words."""
    words = re.findall(r"[A-Za-z][\w'’]*", quote)
    title = sum(w[0].isupper() for w in words) * 2 > len(words) + 1
    return FIRST_PERSON.search(quote) is not None and not title and _OWN_WORDS.search(before) is None


def unpasted(text: str) -> str:
    """``text`` without the passages it quotes for the agent to work on ("summarize this: '...'"), nor
    anyone's words in the first person it quotes ("how do you say 'I'm vegan' in French?")."""
    work = _WORK.search(text) is not None
    return _QUOTED.sub(
        lambda m: "" if (work and len(m[0].split()) >= 4) or _someone_elses(m[0], text[: m.start()]) else m[0], text
    )


def untold(sentences: Iterable[str]) -> list[str]:
    """The sentences that are the user's to remember: no dream, no game (from where it starts to the end
    of the message), no one supposed, no material presented; a story keeps only that the user writes it."""
    out: list[str] = []
    for sentence in sentences:
        if (play := _PLAY.search(sentence)) is not None:
            out += [kept for kept in [sentence[: play.start()].strip(" ,;:-")] if _has_words(kept)]
            break
        if _DREAM.search(sentence) or _SUPPOSED.match(sentence) or _PRESENTED.match(sentence):
            continue
        if (story := _STORY_CUT.search(sentence)) is not None:
            head = sentence[: story.end("head")]
            if _WRITES.search(head):  # "I'm writing a thriller where ...": only that the user writes it
                out.append(head)
                continue
            said = sentence[story.start("cut") :].lstrip(": ").removeprefix("the ").removeprefix("The ")
            if _CHARACTER.match(said):  # "my short story's main character is ...", "my novel: the hero ..."
                continue
        out.append(sentence)
    return out


def _has_words(text: str) -> bool:
    return len(re.findall(r"[A-Za-z]{2,}", text)) >= 3
