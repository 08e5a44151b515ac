"""What ends the user's job: retiring, losing or leaving it, a last day, and a new job somewhere else.

Probe 10 (round 22): "I've handed in my notice" left "User works as a nurse at the Royal Infirmary". The
asked-now probe (round 23): "got laid off today" left "User is in HR at OhioHealth", "packed in the lorry
driving. starting with First Bus next month" left "User drives HGV for a living", "starting full-time at
Sparkle Animation" left "User is freelance", and "quit the supermarket, got a job at nandos" left "works
saturdays at tesco": a job was read only as "works" or "is a … at X", and a new job ended only a job whose
employer slot the extraction rules had filled (:func:`~tasks.providers.jobs.job_changed`). Each is settled
(:func:`~tasks.providers.settling.settles`) when the job is the user's; a new job only when it names
another employer and is not a second one ("as well", "on the side").
"""

from __future__ import annotations

import re

from tasks.providers.jobs import JOBS
from tasks.providers.milestones import USER, named_in
from tasks.providers.wording import content_words

_NAME = r"[A-Z][\w'&-]*(?: [A-Z][\w'&-]*)*"
#: Where a job may be said to be: a department or trade ("User is in HR at OhioHealth", "in sales").
_FIELD = (
    r"(?:HR|IT|PR|sales|marketing|finance|accounts|admin|recruitment|retail|hospitality|insurance|banking|tech|"
    r"construction|education|logistics|operations|procurement|compliance|payroll|customer service|"
    r"the \w+ team|\w+ department)"
)
#: The user's job: "works", "teaches", "is a nurse at X", "is in HR at X", "drives HGV for a living", "is
#: freelance", "is self-employed".
_WORKS = re.compile(
    rf"{USER} (?:works?|teach(?:es)?|(?:is|are) employed)\b"
    rf"|{USER}(?:['’]re| is| are| has been| have been) (?:an?|the) [\w -]+ (?:at|for|of) (?:an? |the )?[A-Z]"
    rf"|{USER}(?:['’]re| is| are) in {_FIELD} (?:at|for) "
    rf"|{USER}(?: \w+){{1,3}}? for a living\b"
    rf"|{USER}(?:['’]re| is| are)(?: \w+ly)? (?:freelance|self-employed|a freelancer|a contractor)\b"
)
#: The user retired ("User is retired!", "User has officially retired"), which ends the job they had.
_RETIRED = re.compile(rf"{USER}(?:['’]re| is| are|['’]ve| has| have)?(?: just| finally| \w+ly| now)? retired\b")
#: The user lost or left their job: "User got made redundant", "User got laid off", "User has handed in
#: User's notice (at The Anchor)", "User quit User's job", "User left Tesco", "User packed in the lorry
#: driving". The employer, when named, must be the one the job is at.
_LEFT_JOB = re.compile(
    rf"{USER}(?:['’]ve| has| have| was| were| got| has been| have been)?(?: just| finally| officially)? "
    r"(?:(?:got |been )?(?:made redundant|laid off|let go|fired|sacked)|handed in (?:User's|their|our|the|my) notice"
    r"|resigned|(?:quit|left|gave up|given up) (?:User's|their|the) job"
    r"|(?:packed|jacked|chucked) in (?:User's |their |the )?(?:job|work|[\w ]+?ing\b))"
    rf"(?: (?:at|from) (?:the )?(?P<at>{_NAME}))?"
    rf"|(?:User|[Tt]hey)(?:['’]ve| has| have)? (?:just )?left (?:the )?(?P<left>{_NAME})"
    # the employer did it: "Costa let User go", "Arup made User redundant"
    rf"|(?P<by>{_NAME}) (?:has |have )?(?:let User go|fired User|sacked User|laid User off|made User redundant)"
)
#: The user's last day at the job: "today was User's last day at Park School", "last day at the office".
_LAST_DAY = re.compile(
    rf"\b(?:User's|their) last (?:day|shift) (?:(?:at|with) (?:the )?(?P<at>{_NAME})|(?:at|in) (?:the )?(?:office|"
    r"work)\b|of work\b)"
)
#: A job the user took or is starting, and where: "User is starting with First Bus", "User got a job at
#: nandos", "User has accepted a practice pharmacist role at a GP surgery", "User started work at X". Said
#: inside a longer fact too ("User is not going back …, User has accepted …"), or after a comma without its
#: subject ("User quit the supermarket, got a job at nandos").
_NEW_JOB = re.compile(
    r"(?:\b(?:User|[Tt]hey|[Ww]e)\b(?!['’]s)(?:['’]ve| has| have| is| are|['’]re)?(?: just| finally| officially)? "
    r"|(?<=, ))(?:(?:starting|started|starts|start|beginning|began|begins)(?: (?:a |User's |the )?(?:new )?(?:job|role|"
    r"position|post|work(?:ing)?)| full-time| part-time)?|(?:got|landed|accepted|taken|took|been offered)"
    r"(?: (?:a|an|the|User's))?(?: [\w-]+){0,3}? (?:job|role|position|post))"
    r" (?:at|with) (?P<at>(?:an? |the )?[\w'&-]+(?: [\w'&-]+){0,2}?)(?=[,.;!?]| (?:as|in|on|from|next|this|"
    r"the|fri|sat|sun|mon|tue|wed|thu|and|but|so|for)\b|$)"
)
#: What makes a start a job ("starting with First Bus …, regular hours"; not "started with Couch to 5K"): a
#: job word before the employer, or a work word or role in the fact.
_JOB_WORD = re.compile(
    r"\b(?:job|role|position|post|full-time|part-time|hours|shifts?|salary|pay|contract|colleagues|boss|"
    rf"employer|as an? (?:[\w-]+ ){{0,2}}(?:{'|'.join(j for j in JOBS if j not in ('student', 'intern'))}))\b"
)
#: A second job beside the first, not instead of it.
_BESIDES = re.compile(r"\b(?:as well|too|also|on the side|side (?:job|hustle|gig)|second job|extra)\b")


def job_ends(fact: str, said: str) -> bool:
    """``fact`` ends the user's job ``said`` tells: retired, lost or left it, or took one elsewhere."""
    if _WORKS.match(said) is None:
        return False
    if _RETIRED.match(fact):
        return True
    left = _LEFT_JOB.match(fact) or _LAST_DAY.search(fact)
    if left is not None:
        return named_in(left, said, "at", "left", "by")
    return _new_job(fact, said)


def _new_job(fact: str, said: str) -> bool:
    """A job the user took at another employer than the one ``said`` names (or names none)."""
    started = _NEW_JOB.search(fact)
    if started is None or _BESIDES.search(fact) or not _JOB_WORD.search(fact):
        return False
    employer = content_words(started["at"]) - {"job", "role", "new"}
    return not employer & content_words(said)
