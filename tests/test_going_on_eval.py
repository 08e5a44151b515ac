"""The going-on family (``python -m evaluation.going_on``): cue words must not close unrelated memories."""

from __future__ import annotations

from evaluation.going_on import measure


def test_dev_users_lose_no_memory_to_a_cue_word_and_their_changes_are_found() -> None:
    """Round 15's code closed 2 DEV and 7 HELD-OUT memories that nothing changed; HELD-OUT is only measured."""
    results = measure()
    assert results["dev"] == {"false supersessions": 0, "changes found": 3, "changes": 3}
    assert results["held-out"]["changes"] == 3
