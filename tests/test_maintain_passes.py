"""Each maintenance pass on a small real store with known ages, confirmations and recall counts."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pyarrow as pa
import pytest

from tasks.maintain import PassName, run_pass, write
from tasks.maintain.decay import STRENGTH_COLUMNS, strength
from tasks.maintain.merge import merged_content
from tasks.recall.ranking import frequency, half_life, recency
from tasks.settings import Settings, TtlRule
from tasks.store.tables import CHANGES, EPISODES, MEMORIES, RUNS, open_store
from tests.maintain_fixtures import NOW, by_id, episode, mem, seed, snapshot, unit


def _settings(base: Settings, **kw: object) -> Settings:
    return base.model_copy(update=kw)


def test_ttl_expires_by_rule_and_explicit_expiry_and_purges_old_closed_rows(settings: Settings) -> None:
    rows = [
        mem("u", "old-detail", "Flight is LH123.", days_ago=400),  # key detail, never recalled: > 365 days
        mem("u", "recalled", "Hotel is the Ritz.", days_ago=400, accessed_days_ago=100),  # recalled since
        mem("u", "pref", "Likes tea.", topic="user_preferences", days_ago=2000),  # preferences never expire
        mem(
            "u",
            "lisbon",
            "Is in Lisbon until Friday.",
            topic="user_personal_info",
            days_ago=10,
            expires_at=NOW - timedelta(days=5),
        ),
        mem("u", "future", "Is in Porto until next month.", topic="user_personal_info", expires_at=NOW + timedelta(1)),
        mem("u", "gone", "Old closed.", status="expired", days_ago=900, closed_days_ago=400),
        mem("u", "recent-closed", "Recently closed.", status="archived", days_ago=100, closed_days_ago=10),
    ]
    seed(settings, rows)
    report = run_pass(settings, "ttl", now=NOW)
    assert report.counts == {"EXPIRE": 2, "PURGE": 1}
    after = by_id(settings)
    old, lisbon = after[rows[0].row_id], after[rows[3].row_id]
    assert old["status"] == "expired" and old["valid_to"] == rows[0].stated_at + timedelta(days=365)
    assert lisbon["status"] == "expired" and lisbon["valid_to"] == NOW - timedelta(days=5)
    assert "explicit expiry" in lisbon["status_reason"]
    assert {after[r.row_id]["status"] for r in rows[1:3] + rows[4:5]} == {"active"}
    assert rows[5].row_id not in after and rows[6].row_id in after  # purged only after the retention
    actions = {(c["row_id"], c["action"]) for c in open_store(settings).rows(CHANGES)}
    assert {(rows[0].row_id, "EXPIRE"), (rows[3].row_id, "EXPIRE"), (rows[5].row_id, "PURGE")} == actions
    run = open_store(settings).rows(RUNS)[0]
    assert run["flow"] == "maintain:ttl" and run["run_id"] == report.run_id
    assert report.run_id in open_store(settings).table(MEMORIES).tags.list()


def test_ttl_rule_since_confirmed_ignores_recalls(settings: Settings) -> None:
    s = _settings(settings, ttl_rules=(TtlRule(topic="key_conversation_details", since="confirmed", days=30),))
    row = mem("u", "a", "Gate B12.", days_ago=60, accessed_days_ago=1)
    seed(s, [row])
    assert run_pass(s, "ttl", now=NOW).counts == {"EXPIRE": 1}


def test_strength_is_recalls_formula_without_the_query(settings: Settings) -> None:
    rows = [mem("u", "a", "x", days_ago=200, confirmations=3, access=4, importance=0.7)]
    table = pa.Table.from_pylist([r.model_dump() for r in rows]).select(STRENGTH_COLUMNS)
    w = settings.ranking
    expected = (w.recency * recency(np.array([200.0]), np.array([half_life("key_conversation_details", settings)]))
                + w.importance * 0.7 + w.frequency * frequency(np.array([7.0])))  # fmt: skip
    got = strength(table, NOW, settings)
    assert got[0] == pytest.approx(expected[0] / (w.recency + w.importance + w.frequency), rel=1e-6)


def test_decay_archives_only_weak_memories(settings: Settings) -> None:
    weak = mem("u", "weak", "Talked about the weather.", days_ago=900, importance=0.2)
    confirmed = mem("u", "confirmed", "Booked seat 12A.", days_ago=900, importance=0.2, confirmations=20, access=30)
    fresh = mem("u", "fresh", "Wants a window seat.", days_ago=2, importance=0.2)
    seed(settings, [weak, confirmed, fresh])
    report = run_pass(settings, "decay", now=NOW)
    after = by_id(settings)
    assert report.counts == {"ARCHIVE": 1}
    assert after[weak.row_id]["status"] == "archived" and after[weak.row_id]["valid_to"] == NOW
    assert after[confirmed.row_id]["status"] == after[fresh.row_id]["status"] == "active"


@pytest.mark.parametrize(
    ("strategy", "pruned"),
    [("weakest", {"weak", "weaker"}), ("oldest", {"oldest", "weaker"}), ("least_recalled", {"never", "weak"})],
)
def test_capacity_strategies(settings: Settings, strategy: str, pruned: set[str]) -> None:
    s = _settings(settings, max_active_per_user=3, capacity_strategy=strategy)
    rows = {
        "oldest": mem("u", "oldest", "a", days_ago=3000, importance=0.9, access=9, confirmations=20),
        "weaker": mem("u", "weaker", "b", days_ago=1500, importance=0.1, access=3),
        "weak": mem("u", "weak", "c", days_ago=400, importance=0.1, access=1),
        "never": mem("u", "never", "d", days_ago=5, importance=0.9, access=0),
        "strong": mem("u", "strong", "e", days_ago=1, importance=0.9, access=8),
        "other-user": mem("v", "x", "f", days_ago=3000, importance=0.1),
    }
    seed(s, list(rows.values()))
    report = run_pass(s, "capacity", now=NOW)
    after = by_id(s)
    archived = {k for k, r in rows.items() if after[r.row_id]["status"] == "archived"}
    assert archived == pruned and report.counts == {"ARCHIVE": 2}


def test_capacity_per_topic(settings: Settings) -> None:
    s = _settings(settings, max_active_per_topic={"user_preferences": 1}, capacity_strategy="oldest")
    prefs = [mem("u", f"p{i}", f"pref {i}", topic="user_preferences", days_ago=10 + i) for i in range(3)]
    seed(s, [*prefs, mem("u", "k", "detail", days_ago=999)])
    run_pass(s, "capacity", now=NOW)
    after = by_id(s)
    assert [after[p.row_id]["status"] for p in prefs] == ["active", "archived", "archived"]


def test_merge_near_duplicates_with_lineage(settings: Settings) -> None:
    base = np.asarray(unit(1))
    a = mem("u", "a", "Prefers aisle seats.", vector=unit(2, base, 0.01), slot="seat", value="aisle", confirmations=1)
    b = mem("u", "b", "Prefers aisle seats on long flights.", vector=unit(3, base, 0.01), slot="seat",
            value="aisle", access=2)  # fmt: skip
    c = mem("u", "c", "Prefers window seats.", vector=unit(4, base, 0.01), slot="seat", value="window")  # contradiction
    d = mem("u", "d", "Unrelated.", vector=unit(5))
    other = mem("v", "a", "Prefers aisle seats.", vector=unit(2, base, 0.01))  # another user: never merged with u
    seed(settings, [a, b, c, d, other])
    report = run_pass(settings, "merge", now=NOW)
    after = open_store(settings).rows(MEMORIES)
    merged = [r for r in after if r["relation"] == "duplicates" and r["status"] == "active"]
    assert len(merged) == 1 and report.details["memory_groups_merged"] == 1
    new = merged[0]
    assert set(new["supersedes"].split(",")) == {a.row_id, b.row_id}
    assert new["content"] == "Prefers aisle seats on long flights."
    assert new["confirmations"] == 2 and new["access_count"] == 2
    statuses = {r["row_id"]: r["status"] for r in after}
    assert statuses[a.row_id] == statuses[b.row_id] == "merged"
    assert statuses[c.row_id] == statuses[d.row_id] == statuses[other.row_id] == "active"


def test_merge_folds_a_restatement_from_another_topic_and_keeps_what_only_looks_like_one(settings: Settings) -> None:
    """A store written before the write path knew restatements holds one fact twice (0.86 apart, under the
    duplicate threshold, in two topics); another person's fact is as close and stays, and so does a hike
    done on two days, told in the same words (0.96 apart)."""
    home, hike = np.asarray(unit(11)), np.asarray(unit(12))
    said = mem("u", "a", "User lives in Utrecht", topic="user_personal_info", vector=[float(x) for x in home])
    again = mem("u", "b", "User mentioned that Utrecht is where User lives, by the way.", vector=unit(13, home, 0.03))
    brother = mem("u", "c", "User's brother lives in Utrecht.", vector=unit(14, home, 0.03))
    hikes = [mem("u", f"h{i}", "User went hiking in Snowdonia.", vector=unit(15 + i, hike, 0.01), days_ago=1 + 20 * i)
             for i in range(2)]  # fmt: skip
    seed(settings, [said, again, brother, *hikes])
    report = run_pass(settings, "merge", now=NOW)
    after = by_id(settings)
    merged = [r for r in after.values() if r["relation"] == "duplicates" and r["status"] == "active"]
    assert report.details["memory_groups_merged"] == 1 and len(merged) == 1
    assert merged[0]["content"] == "User lives in Utrecht" and merged[0]["topic"] == "user_personal_info"
    assert set(merged[0]["supersedes"].split(",")) == {said.row_id, again.row_id}
    assert [after[r.row_id]["status"] for r in (brother, *hikes)] == ["active"] * 3


def test_merge_takes_the_same_words_from_two_topics_and_never_two_speakers(settings: Settings) -> None:
    base = np.asarray(unit(21))
    diet = mem("u", "a", "User is vegetarian", topic="user_preferences", vector=unit(22, base, 0.005),
               slot="preference:diet", value="vegetarian")  # fmt: skip
    again = mem("u", "b", "User is a vegetarian.", vector=unit(23, base, 0.005), slot="about:be", value="a vegetarian")
    theirs = mem("u", "c", "User is a vegetarian.", vector=unit(24, base, 0.005)).model_copy(update={"speaker": "Sam"})
    seed(settings, [diet, again, theirs])
    run_pass(settings, "merge", now=NOW)
    after = by_id(settings)
    assert after[diet.row_id]["status"] == after[again.row_id]["status"] == "merged"
    assert after[theirs.row_id]["status"] == "active"


def test_merged_content_joins_different_details() -> None:
    rows = [mem("u", "a", "Flies to Oslo on Friday."), mem("u", "b", "Flies to Oslo with Sam.")]
    assert sorted(merged_content(rows).rstrip(".").split("; ")) == ["Flies to Oslo on Friday", "Flies to Oslo with Sam"]


def test_merged_content_is_the_plainest_wording_that_says_it_all() -> None:
    """A restatement's asides and frame add no content: the plain wording stands, nothing is joined."""
    rows = [
        mem("u", "a", "User mentioned that Utrecht is where User lives, by the way."),
        mem("u", "b", "User lives in Utrecht."),
        mem("u", "c", "User asked to remember: User lives in Utrecht"),
    ]
    assert merged_content(rows) == "User lives in Utrecht."
    rows = [mem("u", "a", "User plays the cello."), mem("u", "b", "User plays the cello in a quartet on Thursdays.")]
    assert merged_content(rows) == "User plays the cello in a quartet on Thursdays."


def test_old_episodes_roll_up_per_month(settings: Settings) -> None:
    march = NOW.replace(month=1, day=5) - timedelta(days=300)
    eps = [episode("u", f"s{i}", march + timedelta(days=i)) for i in range(3)]
    recent = episode("u", "recent", NOW - timedelta(days=3))
    seed(settings, [mem("u", "x", "y")], [*eps, recent])
    report = run_pass(settings, "merge", now=NOW)
    rows = {r["session_id"]: r for r in open_store(settings).rows(EPISODES)}
    month = f"month:{march:%Y-%m}"
    assert report.details["episode_months_rolled_up"] == 1
    assert [s["text"].split("]")[0] for s in rows[month]["sentences"]] == ["[s0", "[s1", "[s2"]
    assert {rows[f"s{i}"]["status"] for i in range(3)} == {"archived"} and rows["recent"]["status"] == "active"
    assert rows[month]["source_event_ids"] == ["s0-e1", "s1-e1", "s2-e1"]


def test_dry_run_changes_no_table_version(settings: Settings) -> None:
    seed(settings, [mem("u", "old", "Gate 4.", days_ago=400), mem("u", "w", "w", days_ago=900, importance=0.1)])
    before = open_store(settings).versions()
    dry = [run_pass(settings, p, now=NOW, dry_run=True) for p in ("ttl", "decay", "capacity", "merge", "upkeep")]
    assert open_store(settings).versions() == before
    assert dry[0].counts == {"EXPIRE": 2} and dry[0].dry_run and dry[1].counts == {"ARCHIVE": 1}
    assert run_pass(settings, "ttl", now=NOW).counts == dry[0].counts


KILLED: tuple[PassName, ...] = ("ttl", "merge")


def _kill_between_steps(monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"killed before {step}")

    monkeypatch.setattr(write, step, boom)


@pytest.mark.parametrize("step", ["write_new_rows", "write_closures", "write_purges", "record_run"])
def test_pass_killed_between_steps_and_rerun_ends_identical(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    base = np.asarray(unit(1))
    rows = [mem("u", "a", "Aisle seat.", vector=unit(2, base, 0.01)), mem("u", "b", "Aisle seat please.",
            vector=unit(3, base, 0.01)), mem("u", "old", "Gate 4.", days_ago=400),
            mem("u", "gone", "x", status="expired", closed_days_ago=500)]  # fmt: skip
    eps = [episode("u", f"s{i}", NOW - timedelta(days=400 + i)) for i in range(2)]
    clean = settings.model_copy(update={"store_uri": str(tmp_path_factory.mktemp("clean") / "store")})
    for s in (clean, settings):
        seed(s, rows, eps)
    for name in KILLED:
        run_pass(clean, name, now=NOW)
    with monkeypatch.context() as patch:
        _kill_between_steps(patch, step)
        for name in KILLED:
            with pytest.raises(RuntimeError, match="killed"):
                run_pass(settings, name, now=NOW)
    for name in KILLED:
        run_pass(settings, name, now=NOW)
    assert snapshot(settings) == snapshot(clean)
