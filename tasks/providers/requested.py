"""What the user asks not to get, and rules said under a label, read as the requests they are.

"New rule: no calls before 9am", "House rule for you: never share my location" and "Please, nothing
with peanuts" left no memory, or "User mentioned that New rule: …" and "User has no calls on Sundays,
only texts, please" (what the user has none of, where they said what they do not want). A label that
names a rule, order or policy ("Golden rule:", "Standing order -", "Rule number one:") says that what
follows is asked of the assistant: the label goes, and an imperative after it is read by the
instruction rules as any other. "No X" or "Nothing X" asked for, by "please" or by such a label, is
"I don't want X" ("I don't want anything X"), and "Please make sure I get X" is "I want you to make sure I get
X". A standing request said in other words is said as the instruction rules read it: "Going forward, …",
"From here on, …", "Whatever you do, …" as "From now on, …"; "Don't ever …" as "Never …"; "Could you always
…?" as "Always …"; and how to answer, bare ("Use Celsius, not Fahrenheit", "Avoid jargon") as with "please".
"""

from __future__ import annotations

import re

from tasks.providers.soft_requests import softened
from tasks.textrules import STOPWORDS as STOP
from tasks.third_person import base_form
from tasks.wordnet import verb_base

#: Words before a rule's name: "New rule", "One more rule", "A standing rule". Not "my": "My rule: never eat
#: after 8pm" is the user's own rule ("My rule for you: …" is said with "for you").
_QUALIFIER = (
    r"(?:an?|one|another|one more|one last|new|quick|house|ground|golden|standing|key|general|simple|strict|"
    r"firm|basic|important|little|small|big|main|first|top|same|usual|old)"
)
#: A label naming a rule asked of the assistant: "New rule:", "Rule number one -", "Standing order:", "Policy
#: from now on:", "House rule for you:", "Reminder for you:", "Important:". Not an order of goods ("My order:
#: two pizzas", "Order #4471: arrived damaged") nor a preference named ("Preference: window seat").
_RULE_LABEL = re.compile(
    rf"^(?:(?:{_QUALIFIER}\s+){{0,3}}(?:rule|policy|instruction|standing order)s?"
    r"(?:\s+(?:(?<=rule )(?:number\s+(?:one|two|three|four|five|\d+)|no\.?\s*\d+|#\s*\d+)|of thumb|for now|"
    r"from now on|going forward|(?:to|for) (?:remember|follow)))*"
    rf"|(?:(?:{_QUALIFIER}|my)\s+){{0,3}}(?:reminder|note|request|rule|instruction)s?\s+for you(?:\s+from now on)?"
    r"|important)"
    r"\s*(?::|\s[-–—]+|[-–—]+\s)\s*(?=\S)",
    re.I,
)
_PLEASE = r"(?:please|pls|plz|kindly)"
#: "Please, no onions", "Please nothing after 10pm", and with the plea after it: "Nothing spicy, please", "No
#: voice notes please, just text" ("No worries, please take your time" asks for nothing; "Nothing changed, please
#: note" is no plea about what follows "nothing").
_NOT_WANTED = re.compile(
    rf"^(?P<lead>{_PLEASE},?\s+)?(?P<no>no|nothing)\s+(?!(?:worries|problem|problems|prob|thanks|rush|hurry|pressure|"
    r"idea|way|clue|doubt|need|matter|biggie|sweat|stress|offen[cs]e|pun)\b)"
    rf"(?P<what>(?:(?!\b{_PLEASE}\b)[^.!?;])+?)(?P<tail>,?\s+{_PLEASE}(?P<more>,\s+[^.!?;]+)?)?[.!]*$",
    re.I,
)

#: "Please make sure I get a vegetarian meal", "Can you make sure I'm on the list?": asked of the assistant,
#: as "I want you to make sure …" says it (not "User mentioned that please make sure …", nor lost as a question).
_SEE_TO_IT = re.compile(
    rf"^(?:(?:{_PLEASE}|can you|could you|would you|will you|can u|could u),?\s+)*(?:make sure|ensure|see to it) "
    rf"(?:that )?(?P<what>(?:I|I'm|I've|I'll|my|we|we're|our)\b[^?!]*?)(?:,?\s+{_PLEASE})?[.!?]*$",
    re.I,
)

#: Openers that say a request stands from now on: "Going forward, …", "From here on out, …", "In future, …".
_FROM_NOW = re.compile(
    r"^(?:going forward|moving forward|from here on(?: out| in)?|from this point(?: on| forward)?|from today(?: on)?|"
    r"in (?:the )?future|henceforth|whatever you do|for all future (?:\w+ ){0,2}\w+)\s*[,:-]\s*(?=\S)",
    re.I,
)
_NEVER_EVER = re.compile(r"^(?:(?:please|pls|plz)\s+)?(?:don't|do not|never)\s+ever\b", re.I)
#: "Could you always double-check the time zone?": a standing request asked as a question.
_ALWAYS_ASKED = re.compile(
    rf"^(?:can|could|would|will) (?:you|u) (?:{_PLEASE} )?(?P<how>always|never) (?P<what>[^?]+?)[?.!]*$", re.I
)
#: How to answer, said bare at a sentence's start ("Use metric units"), as the instruction rules read it
#: after "please"; not a parting word ("Keep it up!", "Keep going"), a saying ("Use it or lose it") or a question.
_HOW_TO_ANSWER = re.compile(
    r"^(?:use|reply|respond|answer|keep|format|spell|stick to|avoid|include|address)\s"
    r"(?!(?:it |that )?up\b|going\b|in touch\b|safe\b|well\b|\w+ or lose\b)(?=\S+\s+\S)(?![^?]*\?)",
    re.I,
)

#: "Reminder: my mum's birthday is on the 22nd" is a note, as "Note: …" is; "Reminder: book the dentist" a task.
_REMINDER = re.compile(r"^(?:(?:a |just a |quick |friendly |small )?reminder)\s*(?::|\s[-–—]+)\s*(?=\S)", re.I)
#: Not a request to the assistant: "Tell me about …", "Call me every name …", someone's words reported ("…, he sang").
_NOT_ASKED = re.compile(
    r"(?:tell me about|call me every)\b|.*,\s+(?:he|she|they|[A-Z][a-z]+)\s+(?:said|says|sang|sings|asked|wrote)\W*$",
    re.I,
)
_STATED = re.compile(r"(?:my|our|I|I'm|I've|I'll|we|we're|the)\b", re.I)

#: A request that comes back ("Tell me the weather every morning", "Every Sunday, give me a shopping list"):
#: an imperative for the user ("me", "my", "us"), said with how often. It stands, as "From now on, …" does.
_EVERY = (
    r"(?:every|each)\s+(?:other\s+|(?:\d+|two|three|four|few|couple of)\s+)?(?:day|morning|afternoon|evening|night|"
    r"week|weekday|weekend|month|year|hour|minute|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
    r"|daily|nightly|weekly|monthly|hourly"
)
_AGAIN_AND_AGAIN = re.compile(
    rf"^(?:(?P<when>{_EVERY})(?:\s+at\s+[\w:.]+)?,\s+)?(?:{_PLEASE}\s+)?[a-z]+\s+(?:me|my|us|our)\b"
    rf"(?(when)[^?]*|[^?]*\b(?:{_EVERY})\b[^?]*)$",
    re.I,
)

#: A standing request under a condition of the user's: "When I ask for recipes, skip the life story", "If I
#: mention work, don't bring up my old boss" (not "When I travel, I always pack light": no imperative follows).
_WHEN_I = re.compile(
    r"^(?:when|whenever|if|once|as soon as)\s+(?:I|I'm|I've|my)\b[^,?]{2,80},\s+(?:(?:please|just|always|never|"
    r"don't|do not)\s+)?(?P<verb>[a-z]+)\s+(?:me|my|us|our|the|a|an|it|them|up|out|off|down|to|that|this|those|"
    r"these|everything|anything)\b",
    re.I,
)

#: A standing permission: "No need to confirm small purchases", "You can skip the pleasantries with me", "Feel
#: free to use my first name"; not a kind word ("No need to apologize!", "You can do it!"), an offer to ask, nor
#: a name to go by ("You can call me Dana": the nickname rule's).
_PERMITS = re.compile(
    r"^(?:no need to|you (?:don't|do not) (?:need|have) to|you can (?:just |always )?|feel free to|"
    r"it's (?:fine|ok|okay) to)"
    r"\s*(?!(?:apologi[sz]e|thank|worry|ask me|call me|be\b|do it\b|see\b|imagine|guess)\b)[a-z][\w'-]*\s+\S+\s+\S",
    re.I,
)


#: What the assistant gives, each of them: a request over its answers ("… for every claim", "… at the end of each
#: reply", "… in all your emails") stands; one over things ("every room", "each of my cousins") is a task.
_OUTPUTS = (
    r"answers?|repl(?:y|ies)|responses?|messages?|e-?mails?|drafts?|claims?|recipes?|summar(?:y|ies)|"
    r"recommendations?|suggestions?|itinerar(?:y|ies)|plans?|reports?|explanations?|examples?|posts?|articles?|"
    r"translations?|snippets?|tables?|quotes?|estimates?|lists?|links?|sources?|code"
)
_OVER_ANSWERS = re.compile(
    rf"\b(?:every|each|all(?: of)?)\s+(?:(?:your|the|my|our)\s+)?(?:[\w-]+\s+)?(?:{_OUTPUTS})\b"
    r"|\b(?:every|each|any) ?time you\b|\bwhenever you\b",
    re.I,
)
_AT_HAND = re.compile(r"\b(?:this|these|those|attached|above|below|here)\b", re.I)
#: An imperative, after a condition on the assistant's doing ("Whenever you suggest a restaurant, …"; not
#: "Whenever you're ready, …", said once) and a plea: its first word is a verb in its base form.
_IMPERATIVE = re.compile(
    r"^(?:(?:whenever|every time|each time|any ?time|when) you\s+"
    r"(?!(?:'re|are|have|get|can|could|want|like|feel|need|find)\b)[^,?]{2,80},\s+)?"
    rf"(?:(?:{_PLEASE}|also|just|and)\s+)*(?P<verb>[a-z][\w-]*)\s",
    re.I,
)


def _over_answers(sentence: str) -> bool:
    """An imperative about every answer the assistant gives ("Please list the sources for every claim",
    "Whenever you recommend a book, tell me how long it is"), not a question, a statement or a task on what
    is at hand ("Check all the links in this doc")."""
    if "?" in sentence or _AT_HAND.search(sentence) or not _OVER_ANSWERS.search(sentence):
        return False
    if (lead := _IMPERATIVE.match(sentence)) is None:
        return False
    verb = lead["verb"].lower()
    return verb not in STOP and verb not in _FEELINGS and verb_base(verb) == verb


#: Verbs of feeling, said with their "I" left out ("Love every answer you give."): what the user feels, no request.
_FEELINGS = frozenset(["love", "like", "enjoy", "adore", "hate", "dislike", "appreciate", "admire", "miss"])


def _asks(rest: str) -> bool:
    """What follows "Going forward," asks something ("send invoices to …", "never share …"), not states it
    ("my work email is …", "Sam handles …")."""
    first = rest.split(maxsplit=1)[0].strip(",").lower() if rest.split() else ""
    return rest[:1].islower() and (
        first in {"never", "always", "don't", "do", "please", "just", "only"} or first not in STOP
    )


def _standing(sentence: str) -> bool:
    """A request that stands without saying so: under a condition of the user's, or one that comes back."""
    if (cond := _WHEN_I.match(sentence)) is not None:
        verb = cond["verb"].lower()
        # "skip", "bring", "need", not "goes" or "was"
        return verb not in STOP and (re.search(r"(?:s|ed|ing)$", verb) is None or base_form(verb))
    if _PERMITS.match(sentence) or _over_answers(sentence):
        return True
    return _AGAIN_AND_AGAIN.match(sentence) is not None and not _NOT_ASKED.match(sentence)


#: A choice said again in short: "Same as usual for the seat - window." is "I want window for the seat."
_SAME_AS = re.compile(
    r"^same as (?:usual|always|ever|before|last time) for (?!(?:me|us)\b)(?P<thing>[\w' ]{1,30}?)\s*[-–—:,]\s*"
    r"(?P<value>(?!(?:no|nothing|not|none|fine|all good)\b)[^.!?]+?)[.!]*$",
    re.I,
)


#: How the user wants to be called, said as the instruction rules read it: "call / refer to me by my first name"
#: is "address me by my first name" (not "Call me by Friday").
_CALLED_BY = re.compile(r"\b(?P<verb>call|refer to) me by (?=(?:my|our)\b)", re.I)


def _address(m: re.Match[str]) -> str:
    return ("Address" if m["verb"][:1].isupper() else "address") + " me by "


def requested(sentence: str) -> str:
    """``sentence`` as the request it is, in the words the instruction rules read: a rule's label dropped, a
    standing request's opener said as "From now on", what is asked not to be given as "I don't want …", a
    "make sure" as "I want you to make sure …", a soft request as "Please …" (:mod:`soft_requests`), "Same as
    usual for X - Y" as "I want Y for X", "call me by my …" as "address me by my …"; other sentences unchanged."""
    sentence = _CALLED_BY.sub(_address, softened(sentence))
    if same := _SAME_AS.match(sentence):
        value = " and ".join(same["value"].rsplit(", ", 1))  # "oat milk, no sugar": one choice, two parts
        sentence = f"I want {value} for {same['thing']}."
    if reminder := _REMINDER.match(sentence):
        rest = sentence[reminder.end() :]
        sentence = f"Remember that {rest}" if _STATED.match(rest) else rest[:1].upper() + rest[1:]
    if opener := _FROM_NOW.match(sentence):  # a statement after it keeps no opener: "Going forward, my email is …"
        rest = sentence[opener.end() :]
        sentence = "From now on, " + rest if _asks(rest) else rest[:1].upper() + rest[1:]
    if _standing(sentence):
        sentence = f"From now on, {sentence[:1].lower()}{sentence[1:]}"
    sentence = _NEVER_EVER.sub("Never", sentence, count=1)
    if asked := _ALWAYS_ASKED.match(sentence):
        sentence = f"{asked['how'].capitalize()} {asked['what']}."
    elif _HOW_TO_ANSWER.match(sentence) and not re.search(rf"\b{_PLEASE}\b", sentence, re.I):  # said once
        sentence = f"Please {sentence[:1].lower()}{sentence[1:]}"
    labelled = _RULE_LABEL.match(sentence)
    body = sentence[labelled.end() :] if labelled else sentence
    if (m := _NOT_WANTED.match(body)) and (labelled or m["lead"] or m["tail"]):
        anything = "anything " if m["no"].lower() == "nothing" else ""
        return f"I don't want {anything}{m['what'].strip().rstrip(',')}{m['more'] or ''}."
    if m := _SEE_TO_IT.match(body):
        return f"I want you to make sure {m['what']}."
    return body[:1].upper() + body[1:] if labelled else sentence
