"""A forget request that names what to forget by its area or by a person, not by the words said.

"Forget all my health stuff" means the diabetes said a month ago; "everything about my ex" means each
memory that names the ex or the ex's name. No shared word ties the request to the memory, and the
embedder puts "my health stuff" no closer to "diagnosed with type 2 diabetes" than to "runs the
Saturday parkrun", so the offline path reads an area lexicon: the general words a user names an area
by, and the words a memory of that area holds. An area widens a request only when nothing else in
it is specific ("my heart condition" still needs "heart"), and an area said alone means the user's
own ("my health stuff" is not the dog's hip dysplasia); a person named narrows it to that person.
Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from tasks.providers.area_senses import of_area
from tasks.providers.people import RELATIONS
from tasks.providers.wording import strip_annotation


def _words(text: str) -> str:
    """A word list as one alternation; a trailing ``*`` is any ending, ``_`` a space."""
    parts = [re.escape(w.rstrip("*")).replace("_", r"\s") + (r"\w*" if w.endswith("*") else "") for w in text.split()]
    return r"\b(?:" + "|".join(parts) + r")\b"


@dataclass(frozen=True)
class Area:
    name: str
    names: re.Pattern[str]  # how a user names the area in a request
    members: re.Pattern[str]  # words a memory of the area holds


def _area(name: str, names: str, members: str, extra: str = "") -> Area:
    member = _words(members) + (f"|{extra}" if extra else "")
    return Area(name, re.compile(_words(names), re.I), re.compile(member, re.I))


_BODY = "arm leg wrist ankle hip rib collarbone foot hand finger toe nose back knee shoulder elbow jaw skull"
AREAS: tuple[Area, ...] = (
    _area("health", "health medical medically illness* sickness* disease* diagnos* condition* meds medication* "
          "medicine* surger* treatment* therapy mental_health prescription* symptom* injur* disabilit* disorder*",
          "diagnos* disease* ill illness* sick* cancer* tumou?r* chemo* radiation diabet* asthma* allerg* hiv aids "
          "hepatitis adhd autis* depress* anxiety panic_attack* bipolar ptsd ocd schizophren* disorder* bulimi* "
          "anorexi* therap* psychiatr* counsel* medicat* meds pill* prescri* antidepressant* insulin inhaler* epipen "
          "surger* surgical operation* hospital* clinic gallbladder appendix tonsils kidney* liver lung* pregnan* "
          "miscarr* ivf fertil* infertil* injur* fractur* sprain* concussion* migraine* epilep* seizure* stroke "
          "heart_attack blood_pressure hypertension cholesterol arthritis dementia alzheimer* parkinson* lupus "
          "celiac coeliac crohn* ibs insomnia apnea disabilit* wheelchair deaf stutter* dyslexi* dysplasia rehab "
          "sober sobriety addict* alcoholi* physio* chiropract* chronic eczema psoriasis thyroid anemi* covid "
          "endometriosis pcos menopause vasectomy colorblind nonverbal",
          rf"\bbroken?\s(?:\w+\s)?(?:{_BODY.replace(' ', '|')})\b|\bbad\s(?:back|knee|knees|hip)\b"),
    _area("money", "money finances financial finance debt* income salary pay earnings savings credit loan* bills "
          "spending budget net_worth what_I_earn what_I_make bank_stuff",
          "debt* owe owes owed owing loan* mortgage* salary salaries paid pay paycheck* earn* income savings "
          "saving_up credit bankrupt* taxes tax irs invest* stock* crypto* budget* inherit* pension 401k overdraft "
          "net_worth lent lend* grand",
          r"\$\s?\d|\b\d+(?:\.\d+)?k\b"),
    _area("taxes", "taxes tax irs back-taxes filing", "taxes tax irs"),
    _area("legal", "legal law lawsuit* court criminal arrest* police charges probation custody_battle "
          "protective_order restraining_order immigration",
          "lawsuit* sue suing sued court* probation parole arrest* jail* prison* charged charges convict* dui dwi "
          "restraining_order protective_order shoplift* fraud theft undocumented visa* deport* immigration "
          "green_card asylum settlement custody illegal* crime* criminal* police felony misdemeanou?r* trial "
          "indict* subpoena bail"),
    _area("religion", "religion religious faith beliefs spiritual* church_stuff",
          "catholic* christian* muslim* islam* jewish judaism hindu* buddhis* sikh* mormon* lds atheis* agnostic* "
          "church* mosque* synagogue* temple pray* bible* quran koran torah baptis* baptiz* convert* ramadan "
          "kosher halal sabbath faith* god jesus pastor* priest* rabbi* imam* spiritual* religio* evangelical "
          "protestant orthodox pagan wicca*"),
    _area("work", "job jobs work career employer company office workplace boss coworkers colleagues professional "
          "job-related work-related work_stuff employment job_hunt* job_search",
          "job* boss* manager* coworker* co-worker* colleague* employ* company office promot* career* interview* "
          "hired fired laid_off layoff* resign* shift* client* firm paralegal nurse teacher engineer developer "
          "designer lawyer attorney doctor accountant analyst consultant chef cook driver pilot electrician plumber "
          "carpenter mechanic librarian pharmacist dentist hygienist scientist researcher professor barista "
          "bartender waiter waitress cashier clerk receptionist dispatcher firefighter architect programmer editor "
          "journalist photographer realtor banker trader surgeon paramedic technician stenographer interpreter "
          "translator veterinarian biologist chemist sommelier",
          r"\bwork(?:s|ed|ing)?\b(?!\s+out)"),
    _area("dating", "dating love_life romantic romance relationship relationships crush crushes hookup* sex_life",
          "dating boyfriend* girlfriend* bf gf crush* feelings_for in_love tinder hinge bumble grindr hookup* "
          "hooked_up fling situationship affair breakup broke_up split_up broken_up first_date fianc*",
          r"\bseeing\s(?:a|this|some|someone)\b|\bex\b|\bex-\w+"
          # "User is seeing Alex now" (a person seen for a while, not "seeing Paris next spring"); "User's partner"
          r"|(?-i:\bseeing\s[A-Z][\w'-]+\s(?:now|for|since|again|these\sdays|lately|recently)\b)"
          r"|(?:'s|\bmy|\btheir|\bhis|\bher)\s(?:new\s|ex-)?partner\b"),
    _area("marriage", "marriage marital married_life", "husband* wife wives spouse* married marriage* divorc* "
          "separated separation couples_therapy marriage_counseling anniversar*"),
    _area("drinking", "drinking alcohol addiction* sobriety substance* drugs drug_use recovery",
          "sober* sobriety alcohol* drink drinks drinking drunk rehab* recover* aa relaps* addict* drug drugs weed "
          "cannabis marijuana cocaine opioid* heroin hungover hangover"),
    _area("gambling", "gambling betting bets", "bet bets betting gambl* casino* poker lotter* sportsbook blackjack"),
    _area("diet", "diet food foods eating food_preferences dietary nutrition what_I_eat meals",
          "vegan* vegetarian* pescatarian* keto paleo gluten* dairy lactose halal kosher eat eats eating diet* carb* "
          "calorie* fasting whole30 macros pork beef meat"),
    _area("pets", "pets pet animals", "dog* cat cats pupp* kitten* bearded_dragon hamster* rabbit* bunny bird* "
          "parrot* budgie* goldfish horse* pony snake* lizard* gecko* turtle* tortoise* ferret* guinea_pig* pet "
          "pets corgi* beagle* retriever* terrier* poodle* labrador* husky pitbull* chihuahua*"),
    _area("weight", "weight scale bmi", "weigh* overweight bmi obes*", r"\b\d+\s?(?:lbs?|pounds|kg|kilos)\b"),
    _area("pregnancy", "pregnancy pregnant baby_news fertility ivf",
          "pregnan* expecting ivf fertil* infertil* miscarr* conceiv*"),
    _area("immigration", "immigration visa residency",
          "undocumented visa* green_card citizen* asylum deport* immigra* refugee* residency work_permit"),
    _area("vehicle", "car cars vehicle vehicles automobile motorbike motorcycle scooter truck I_drive I_ride",
          "car cars vehicle* automobile* truck* suv* motorbike* motorcycle* scooter* moped* van minivan* sedan* "
          "hatchback* convertible* jeep* honda toyota tesla subaru ford bmw audi volkswagen vw nissan hyundai kia "
          "mazda volvo porsche ferrari chevy chevrolet lexus fiat peugeot renault skoda prius corolla vespa yamaha "
          "harley ducati kawasaki suzuki"),
    _area("commute", "commute commuting", "commut* ferry train bus subway metro tube carpool*"),
    _area("travel", "trip trips travel travels vacation* holiday*",
          "trip* travel* flight* vacation* holiday* heading_to visiting abroad itinerar* hotel cruise"),
    _area("move", "move moving relocation relocating", "relocat*", r"\bmov(?:e|es|ed|ing)\s(?:to|out|in|away)\b"),
    _area("home", "city town hometown address location neighbourhood neighborhood whereabouts live living based",
          "hometown address neighbou?rhood relocat*",
          r"\bliv(?:e|es|ed|ing)\s(?:in|at|near|on|by|just)\b|\bbased\s(?:in|out)\b|\bmov(?:e|es|ed|ing)\s(?:to|back)\b"),
    _area("tattoo", "tattoo tattoos ink piercing*", "tattoo* pierc* ink"),
    _area("school", "school studies degree grades college university", "school college universit* degree phd "
          "masters bachelor* student studying semester grades gpa exam* course* sophomore freshman"),
    _area("identity", "sexuality orientation gender", "gay lesbian bi bisexual queer trans transgender nonbinary "
          "non-binary came_out coming_out"),
    _area("politics", "politics political", "democrat* republican* liberal* conservative* vote voted voting "
          "labour tory socialist libertarian leftist"),
)  # fmt: skip

#: Words of an area request that say nothing specific ("all my old money mess from a few years ago").
_FILLER = re.compile(_words(
    "all any every anything everything whatever my the a an of about on from to in with and or that this those "
    "these it you u i i've i'm me we our your stuff stuf thing things info information detail* matter* issue* "
    "problem* mess situation* status history news side front life plans plan related old new past current "
    "previous recent entire whole private personal embarrassing sensitive few years year ago months last time "
    "bit bits part please pls number amount planning kind sort type some "
    "mentioned told said shared vented venting drama rant ranted informations trouble know have having got remember "
    "was were is are am be been being had has did does do abt bout "
    "what when where which mine family family's preferences for now"
), re.I)  # fmt: skip
#: "mine or my family's", "anyone's": an area request that is not only about the user.
_ANYONE = re.compile(r"\b(?:family|family's|anyone|anyone's|everyone|everyone's|others?)\b", re.I)

_KIN: Mapping[str, str] = {
    "ex": r"\bex\b|\bex-\w+|\bformer\s(?:spouse|partner|husband|wife|boyfriend|girlfriend)",
    "mother-in-law": r"\bmother-in-law\b|\bmil\b|\b(?:husband|wife|partner|spouse)'s\s(?:mom|mum|mother)\b",
    "father-in-law": r"\bfather-in-law\b|\b(?:husband|wife|partner|spouse)'s\s(?:dad|father)\b",
    "mother": r"\b(?:mom|mum|mother|mama|mommy|mummy)\b(?!-in-law)",
    "father": r"\b(?:dad|father|papa|daddy)\b(?!-in-law)",
    "child": r"\b(?:kid|kids|child|children|son|daughter|sons|daughters)\b",
    "spouse": r"\b(?:husband|wife|spouse)\b",
    "grandparent": r"\b(?:grandma|grandmother|grandpa|grandfather|nan|nana|granny|gran)\b",
    "coworker": r"\b(?:coworker|co-worker|colleague)s?\b|\b(?:guy|girl|woman|man|someone|person|lady)\sat\swork\b",
    "roommate": r"\b(?:roommate|flatmate|housemate)s?\b",
    "neighbour": r"\bneighbou?rs?\b",
    **{rel: rf"\b{rel}s?\b" for rel in ("brother", "sister", "friend", "boyfriend", "girlfriend", "partner", "cousin",
                                        "uncle", "aunt", "boss", "niece", "nephew", "fiance", "fiancee", "therapist",
                                        "manager")},
}  # fmt: skip
_KIN_RE = {k: re.compile(v, re.I) for k, v in _KIN.items()}
_OWNED = r"(?:'s|\btheir|\bhis|\bher|\bmy)\s(?:[\w-]+\s)?"
#: A person in a memory: owned by its speaker ("User's daughter Maeve"), not "tutors kids in math".
_KIN_SAID = {k: re.compile(rf"{_OWNED}(?:{v})" + (r"|\bat\swork\b" if k == "coworker" else ""), re.I)
             for k, v in _KIN.items()}  # fmt: skip
_OTHERS = re.compile(
    rf"^(?:\w+ mentioned that )?(?:\w+'s|their|his|her)\s(?:[\w-]+\s)?(?:{'|'.join(sorted(RELATIONS))}|ex)\b", re.I
)


def named_areas(query: str) -> list[Area]:
    return [a for a in AREAS if a.names.search(query)]


def named_kin(query: str) -> list[str]:
    """The people a request names by their tie to the user ("my ex", "my husband's mom")."""
    found = [k for k, rx in _KIN_RE.items() if rx.search(query)]
    return [k for k in found if not (k in ("mother", "father") and {"mother-in-law", "father-in-law"} & set(found))]


@lru_cache(maxsize=256)
def _read(query: str) -> tuple[tuple[Area, ...], tuple[str, ...], tuple[str, ...]]:
    """A request's areas, people and specific words, read once: it is matched against each related memory."""
    kin = named_kin(query)
    return tuple(named_areas(query)), tuple(kin), tuple(_specific(query, kin))


def names_area_or_kin(query: str) -> bool:
    """Whether a forget target names an area or a person of the user's: about the user, not a plan."""
    return bool(named_areas(query) or named_kin(query))


def _specific(query: str, kin: list[str]) -> list[str]:
    """What the request says besides areas, people and filler: each must be in the memory."""
    rest = query
    for rx in [a.names for a in AREAS] + [_KIN_RE[k] for k in kin]:
        rest = rx.sub(" ", rest)
    words = re.findall(r"[a-z0-9][a-z0-9'-]*", _FILLER.sub(" ", rest.lower()))
    return [w for w in words if len(w) > 2 or w.isdigit()]  # "when I turn 30": a number is specific


def area_match(query: str, content: str, names: Mapping[str, str]) -> str:
    """Why ``content`` is what ``query`` asks to forget by area or person ("" when it is not).

    ``names``: name -> relation of the people the user's memories tie ("Dominic" -> "ex")."""
    areas, kin, specific = _read(query)
    if not areas and not kin:
        return ""
    low = content.lower()
    if specific and all(w not in low for w in specific):
        return ""  # a specific word must be in it; of several, one ("the trip for when I turn 30")
    if kin:
        tied = [n for n, rel in names.items() if any(_KIN_RE[k].search(rel) for k in kin)]
        said = any(_KIN_SAID[k].search(content) for k in kin)
        if not said and not any(re.search(rf"\b{re.escape(n)}\b", content) for n in tied):
            return ""
    if areas:
        if not any(a.members.search(content) or of_area(a.name, strip_annotation(content)) for a in areas):
            return ""
        other = _OTHERS.search(content)  # whom the memory is about: the user's own only if of the area itself
        if not kin and not _ANYONE.search(query) and other and not any(a.members.search(other[0]) for a in areas):
            return ""  # "my health stuff" is the user's own, not their dog's; "my pets" are the dog, "my job" the boss
    return "names its " + " and ".join([a.name for a in areas] + list(kin))
