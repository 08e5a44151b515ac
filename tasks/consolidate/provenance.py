"""Which turns a new version of a memory cites."""

from __future__ import annotations

from tasks.consolidate.matches import Statement
from tasks.providers.wording import content_words, strip_annotation
from tasks.rows import MemoryRow


def carried(src: Statement, target: MemoryRow, before: MemoryRow | None, content: str) -> list[str]:
    """The turns of a new version ``content`` of ``target`` (whose own predecessor is ``before``): the fact's,
    then, when its text carries the old one ("(previously: …)", "(changed from Berlin …)", or an LLM's merged
    text with a word only the old one said), the turns that said the old one, not those it carried itself."""
    old_words = (content_words(content) - content_words(src.text)) & content_words(target.content)
    if strip_annotation(content) == content and not old_words:
        return list(src.events)
    earlier = set(before.source_event_ids) if before else set()
    return [*src.events, *(e for e in target.source_event_ids if e not in earlier and e not in src.events)]
