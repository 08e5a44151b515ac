"""Phrase bank of the synthetic dataset: what users say about themselves, and what they only chat about.

Kept apart from the generator so the wording can grow without touching the scheduling logic. Every
statement carries its value verbatim ("{v}"), so gold provenance is exact; the wording varies
(asides, hedges, run-on sentences) so that extraction cannot succeed by matching one template.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SlotSpec:
    """One kind of fact: its topic, possible values, how it is said, asked, changed and forgotten."""

    slot: str
    topic: str
    category: str
    values: tuple[str, ...]
    say: tuple[str, ...]
    restate: tuple[str, ...]
    fact: str
    questions: tuple[str, ...]
    update: tuple[str, ...] = ()
    forget: tuple[str, ...] = ()


SLOTS: tuple[SlotSpec, ...] = (
    SlotSpec(
        "name",
        "user_personal_info",
        "personal_info",
        ("Dana", "Priya", "Marcus", "Elena", "Tomasz", "Aiko", "Noor", "Felix", "Grace", "Ravi"),
        (
            "Oh, before I forget, my name's {v}.",
            "I'm {v}, by the way - nice to finally talk properly.",
            "You can call me {v}, everyone does.",
        ),
        ("Just {v} is fine, no need for formalities.",),
        "User's name is {v}",
        ("What is the user's name?", "What should the assistant call the user?"),
    ),
    SlotSpec(
        "job",
        "user_personal_info",
        "personal_info",
        (
            "nurse",
            "software engineer",
            "architect",
            "pastry chef",
            "veterinarian",
            "journalist",
            "physiotherapist",
            "data analyst",
        ),
        (
            "Long week. Being a {v} means the schedule is never really mine.",
            "I work as a {v} at a place downtown, so evenings are my only free time.",
            "Honestly after eight years as a {v} I still like the job most days.",
        ),
        ("Work was hectic again - that's life as a {v} I guess.",),
        "User works as a {v}",
        ("What does the user do for a living?", "What is the user's job?"),
        update=(
            "Big news: I left my old job as a {old}, I'm working as a {v} now!",
            "Quick update on me - I changed careers, I'm a {v} these days.",
        ),
    ),
    SlotSpec(
        "city",
        "user_personal_info",
        "personal_info",
        ("Berlin", "Lisbon", "Toronto", "Melbourne", "Austin", "Dublin", "Oslo", "Nairobi", "Kyoto"),
        (
            "It's been grey all week here in {v}, typical.",
            "I live in {v}, moved here about three years ago.",
            "The trams in {v} were a mess this morning.",
        ),
        ("Back home in {v} now, the flight was fine.",),
        "User lives in {v}",
        ("Which city does the user live in?", "Where is the user based?"),
        update=(
            "We finally did it - we moved to {v} last weekend!",
            "Not in {old} anymore, by the way: I relocated to {v} for good.",
        ),
        forget=(
            "Please forget that I live in {v}, I'd rather you didn't keep that.",
            "Can you delete the bit about me living in {v}? Don't store that.",
        ),
    ),
    SlotSpec(
        "pet",
        "user_personal_info",
        "personal_info",
        ("Miso", "Biscuit", "Pepper", "Juno", "Rocket", "Olive", "Mochi"),
        (
            "My cat {v} knocked my coffee over this morning, classic.",
            "I have to walk my dog {v} before the meeting, back in ten.",
            "{v}, my rabbit, has figured out how to open the cupboard.",
        ),
        ("{v} says hi, currently sitting on the keyboard again.",),
        "User has a pet named {v}",
        ("What is the name of the user's pet?",),
        forget=("Forget about {v} please, I don't want my pet's name on file.",),
    ),
    SlotSpec(
        "partner",
        "user_personal_info",
        "personal_info",
        ("Sam", "Jordan", "Maya", "Luca", "Hannah", "Omar", "Ines"),
        (
            "My partner {v} is cooking tonight, thank god.",
            "{v} - my wife - thinks I should take the job.",
            "My husband {v} and I are planning the weekend.",
        ),
        ("{v} sends their regards, we were just talking about you.",),
        "User's partner is {v}",
        ("What is the name of the user's partner?",),
    ),
    SlotSpec(
        "drink",
        "user_preferences",
        "preference",
        ("black coffee", "green tea", "espresso", "rooibos", "hot chocolate", "cold brew", "oat lattes"),
        (
            "Can't start the day without {v}, seriously.",
            "I'm on my third {v} already, don't judge.",
            "Nothing beats {v} in the morning for me.",
        ),
        ("Having my usual {v} while we do this.",),
        "User's preferred drink is {v}",
        ("What does the user like to drink?", "What is the user's go-to drink in the morning?"),
        update=(
            "Actually I switched from {old} to {v}, my doctor's orders.",
            "Small change: it's {v} for me now, I gave up {old}.",
        ),
    ),
    SlotSpec(
        "food",
        "user_preferences",
        "preference",
        ("Thai", "Ethiopian", "Lebanese", "Korean", "Mexican", "Sichuan", "Italian"),
        (
            "If I could eat {v} food every day I would.",
            "We ordered {v} again, it's my favourite food by far.",
            "I'm a sucker for anything {v}.",
        ),
        ("Had {v} for dinner again, I never get tired of it.",),
        "User's favourite food is {v}",
        ("What kind of food does the user love?",),
    ),
    SlotSpec(
        "seat",
        "user_preferences",
        "preference",
        ("aisle", "window"),
        (
            "When you book flights for me, I always want the {v} seat.",
            "{v} seat, every time - I'm fussy about that.",
            "Please make sure I get the {v} seat on that flight.",
        ),
        ("Same as usual for the seat - {v}.",),
        "User prefers the {v} seat on flights",
        ("Which seat does the user prefer on flights?",),
        update=("Changed my mind about seats: from now on I want the {v} seat, not {old}.",),
    ),
    SlotSpec(
        "music",
        "user_preferences",
        "preference",
        ("jazz", "punk rock", "bossa nova", "classical piano", "K-pop", "bluegrass"),
        (
            "I've had {v} on repeat all week.",
            "Put on some {v} while I write this, it helps me focus.",
            "My favourite music? {v}, no contest.",
        ),
        ("Listening to {v} again, you know me.",),
        "User likes {v} music",
        ("What music does the user like?",),
        update=("Funny thing, I've gone off {old} completely - it's all {v} now.",),
    ),
    SlotSpec(
        "trip",
        "key_conversation_details",
        "decision",
        ("Iceland", "Japan", "Patagonia", "Morocco", "Vietnam", "Sicily"),
        (
            "OK I've decided: we're going to {v} in October. Booking it tonight.",
            "After all that back and forth we picked {v} for the holiday.",
        ),
        ("So {v} it is, still very excited about the trip.",),
        "User decided to travel to {v}",
        ("Where did the user decide to go on holiday?",),
    ),
    SlotSpec(
        "offer",
        "key_conversation_details",
        "decision",
        ("Northwind", "Globex", "Initech", "Umbrella Health", "Stark Logistics"),
        (
            "The interview went well - {v} made me an offer and I accepted!",
            "Good news, I signed with {v} yesterday.",
        ),
        ("Still can't believe {v} said yes.",),
        "User accepted a job offer from {v}",
        ("Which company's offer did the user accept?",),
    ),
    SlotSpec(
        "contact",
        "explicit_instructions",
        "instruction",
        ("on weekends", "in the evenings", "before 9am"),
        (
            "Never contact me {v}, that time is for family.",
            "Rule for you: no messages {v}, please.",
            "Remember that I don't want to be pinged {v}.",
        ),
        ("Again, please, nothing {v}.",),
        "User must not be contacted {v}",
        ("When should the user not be contacted?",),
    ),
    SlotSpec(
        "format",
        "explicit_instructions",
        "instruction",
        ("bullet points", "short answers", "tables"),
        (
            "Remember that I prefer {v} - I skim everything.",
            "From now on, give me {v}, always.",
        ),
        ("Reminder: {v} please.",),
        "User wants responses as {v}",
        ("How does the user want answers formatted?",),
    ),
    SlotSpec(
        "passport",
        "explicit_instructions",
        "instruction",
        ("March", "June", "September", "December"),
        (
            "Remember that my passport expires in {v}, remind me before any trip.",
            "Note for later: passport runs out in {v}.",
        ),
        ("My passport still expires in {v}, right? Keep that in mind.",),
        "User's passport expires in {v}",
        ("When does the user's passport expire?",),
    ),
)

#: (user, agent) exchanges with nothing worth remembering: greetings, chit-chat, generic tasks.
SMALL_TALK: tuple[tuple[str, str], ...] = (
    ("Hey, you there?", "Hi! Yes, what can I do for you today?"),
    ("Morning!", "Good morning - how can I help?"),
    (
        "Can you explain how compound interest works?",
        "Sure: interest is added to the balance, and later interest is computed on that larger balance.",
    ),
    (
        "What's a good substitute for buttermilk?",
        "Mix a tablespoon of lemon juice into a cup of milk and wait.",
    ),
    (
        "Write me a haiku about autumn.",
        "Crisp leaves underfoot / the maple lets go slowly / light turns amber-gold",
    ),
    ("How many ounces in a cup?", "Eight fluid ounces in a US cup."),
    ("haha ok", "Anything else on your mind?"),
    ("What's the capital of Australia?", "Canberra - not Sydney, a common mix-up."),
    ("Give me a synonym for 'important'.", "Crucial, vital, significant - depends on the tone you want."),
    ("Is it going to be a busy week, do you think?", "Hard to say from here! Want help planning it?"),
    (
        "Can you summarise the plot of Hamlet in two lines?",
        "A prince seeks revenge for his father's murder. Nearly everyone dies.",
    ),
    ("How do I convert a PDF to Word?", "Most office suites open PDFs directly; save the result as .docx."),
    ("Tell me a fun fact.", "Octopuses have three hearts."),
    ("What's 15% of 80?", "12."),
    ("Any tips for a short presentation?", "One idea per slide, and rehearse the first minute."),
)

OPENERS: tuple[tuple[str, str], ...] = (
    ("Hi again!", "Hello! Good to hear from you."),
    ("Hey, quick one today.", "Sure, go ahead."),
    ("Hello :)", "Hi there! What's up?"),
    ("ok I'm back", "Welcome back!"),
)

CLOSERS: tuple[tuple[str, str], ...] = (
    ("Thanks, that's all for now.", "Anytime - talk soon!"),
    ("Perfect, thank you!", "Glad I could help."),
    ("Great, bye!", "Bye!"),
    ("Cheers.", "Take care!"),
)

ACKS: tuple[str, ...] = ("Got it, thanks for telling me.", "Noted!", "Good to know.", "Understood.",
                         "Thanks - I'll keep that in mind.", "Oh nice!")  # fmt: skip

FORGET_ACKS: tuple[str, ...] = ("Done - I won't keep that.", "Of course, it's removed.")
