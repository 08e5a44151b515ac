"""The HTTP API against the real app on a real socket, over a real LanceDB store in tmp_path.

One server and store for the module (tests run in file order and each leaves the store consistent).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tasks.ingest.run import run_ingest
from tests.api_support import ACME_KEY, ADMIN_KEY, NOW, OTHER_KEY, seeded_settings, serve, session_line

ALICE = "/v1/apps/acme/users/alice"


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    # WordNet list questions and respelling load ~20 s of lexicons on a first recall; they have their own
    # tests, and these test the HTTP wiring around the same Recaller.
    root = tmp_path_factory.mktemp("api")
    settings = seeded_settings(root, api_max_body_bytes=20_000, recall_kinds=False, recall_respell=False)
    with serve(settings) as url:
        clients = {name: httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60)
                   for name, key in (("acme", ACME_KEY), ("other", OTHER_KEY), ("admin", ADMIN_KEY))}  # fmt: skip
        clients["anon"] = httpx.Client(base_url=url, timeout=60)
        yield {"settings": settings, "url": url, **clients}
        for client in clients.values():
            client.close()


def _items(client: httpx.Client, path: str = ALICE + "/memories", **params: Any) -> list[dict[str, Any]]:
    reply = client.get(path, params=params)
    assert reply.status_code == 200, reply.text
    items: list[dict[str, Any]] = reply.json()["items"]
    return items


def _id_of(client: httpx.Client, words: str) -> str:
    found = _items(client, q=words)
    assert len(found) == 1, found
    return str(found[0]["memory_id"])


def test_health_docs_and_list_sorted_by_date(env: dict[str, Any]) -> None:
    assert env["anon"].get("/healthz").json()["status"] == "ok"
    assert "/v1/apps/{app}/users/{user}/memories" in env["anon"].get("/openapi.json").json()["paths"]
    assert env["anon"].get("/docs").status_code == 200
    reply = env["acme"].get(ALICE + "/memories").json()
    assert set(reply) >= {"items", "next_cursor"} and reply["next_cursor"] is None
    stated = [m["stated_at"] for m in reply["items"]]
    assert len(stated) == 5 and stated == sorted(stated, reverse=True)
    assert "vector" not in reply["items"][0]
    assert reply["items"][0]["content"] == "User lives in Zurich"


def test_filters_topic_text_time_and_status(env: dict[str, Any]) -> None:
    acme = env["acme"]
    assert {m["topic"] for m in _items(acme, topic="user_preferences")} == {"user_preferences"}
    assert [m["content"] for m in _items(acme, q="PARROT")] == ["User loves African Grey parrots"]
    recent = _items(acme, since="2026-03-06T00:00:00Z", until="2026-03-09T23:00:00Z")
    assert len(recent) == 2
    assert _items(acme, as_of="2026-01-01T00:00:00Z") == []
    assert env["acme"].get(ALICE + "/memories", params={"status": "bogus"}).status_code == 422
    assert env["acme"].get(ALICE + "/memories", params={"limit": 0}).status_code == 422


def test_pages_by_cursor_lose_nothing_under_concurrent_writes(env: dict[str, Any]) -> None:
    acme = env["acme"]
    before = {m["memory_id"] for m in _items(acme)}
    first = acme.get(ALICE + "/memories", params={"limit": 2}).json()
    assert len(first["items"]) == 2 and first["next_cursor"]
    # a write between pages: an edit closes a version and adds one stated now (newest, before the cursor)
    edited = first["items"][1]["memory_id"]
    assert acme.put(f"{ALICE}/memories/{edited}", json={"content": "User loves grey parrots a lot"}).status_code == 200
    seen, cursor = [m["memory_id"] for m in first["items"]], first["next_cursor"]
    while cursor:
        page = acme.get(ALICE + "/memories", params={"limit": 2, "cursor": cursor}).json()
        seen += [m["memory_id"] for m in page["items"]]
        cursor = page["next_cursor"]
    assert len(seen) == len(set(seen)) and set(seen) == before
    assert acme.get(ALICE + "/memories", params={"cursor": "not-a-cursor"}).status_code == 422


def test_edit_is_a_new_audited_version_and_accepts_key_point(env: dict[str, Any]) -> None:
    acme = env["acme"]
    mid = _id_of(acme, "aisle")
    reply = acme.put(f"{ALICE}/memories/{mid}", json={"keyPoint": "User prefers a window seat ✈ (نافذة)"})
    assert reply.status_code == 200, reply.text
    new = reply.json()
    assert new["memory_id"] == mid and new["version"] == 2 and new["row_id"].endswith("-v2")
    assert acme.get(f"{ALICE}/memories/{mid}").json()["content"] == "User prefers a window seat ✈ (نافذة)"
    history = acme.get(f"{ALICE}/memories/{mid}/history").json()
    assert [v["status"] for v in history["versions"]] == ["superseded", "active"]
    assert history["versions"][1]["supersedes"] == history["versions"][0]["row_id"]
    assert [c["action"] for c in history["changes"]] == ["ADD", "UPDATE"]
    assert history["source_event_ids"] == ["s2-e1"] and history["sources"][0]["session_id"] == "s2"
    for bad in ({"content": 123}, {"content": ""}, {"content": "x", "extra": 1}, {}, [1]):
        assert acme.put(f"{ALICE}/memories/{mid}", json=bad).status_code == 422, bad


def test_delete_and_bulk_delete_are_audited(env: dict[str, Any]) -> None:
    acme = env["acme"]
    one, two, three = (_id_of(acme, w) for w in ("Google", "Nora", "Zurich"))
    assert acme.delete(f"{ALICE}/memories/{one}").json()["status"] == "deleted"
    assert acme.delete(f"{ALICE}/memories/{one}").status_code == 409  # no current version left
    assert acme.post(ALICE + "/memories:bulk-delete", json={"ids": [two, three]}).json()["deleted"] == sorted(
        [two, three]
    )
    left = {m["memory_id"] for m in _items(acme)}
    assert not left & {one, two, three}
    deleted = _items(acme, status="deleted")
    assert {m["memory_id"] for m in deleted} >= {one, two, three}
    changes = acme.get(f"{ALICE}/memories/{two}/history").json()["changes"]
    assert changes[-1]["action"] == "DELETE"


def test_recall_gives_hits_and_the_context_block(env: dict[str, Any]) -> None:
    reply = env["acme"].post(ALICE + "/recall", json={"query": "Which seat do I like?", "k": 3, "budget": 200,
                                                      "now": NOW.isoformat()})  # fmt: skip
    assert reply.status_code == 200, reply.text
    body = reply.json()
    memories = [h for h in body["hits"] if h["kind"] == "memory"]
    assert memories[0]["content"] == "User prefers a window seat ✈ (نافذة)"
    assert body["context"].startswith("Known facts:") and "window seat" in body["context"]
    assert env["acme"].post(ALICE + "/recall", json={"query": "", "k": 3}).status_code == 422
    assert env["acme"].post(ALICE + "/recall", json={"query": "x", "k": "3"}).status_code == 422


def test_auth_no_key_wrong_app_and_admin(env: dict[str, Any]) -> None:
    assert env["anon"].get(ALICE + "/memories").status_code == 401
    bad = httpx.get(env["url"] + ALICE + "/memories", headers={"Authorization": "Bearer nope-nope-nope-nope"})
    assert bad.status_code == 401
    assert httpx.get(env["url"] + ALICE + "/memories", headers={"Authorization": "Basic abc"}).status_code == 401
    assert env["other"].get(ALICE + "/memories").status_code == 403
    mid = _items(env["acme"])[0]["memory_id"]
    assert env["other"].get(f"/v1/apps/other/users/bob/memories/{mid}").status_code == 404  # not bob's
    assert env["admin"].get(ALICE + "/memories").status_code == 200
    assert env["acme"].get("/v1/runs").status_code == 403
    assert env["acme"].get("/v1/quarantine").status_code == 403


@pytest.mark.parametrize("hostile", ["' OR '1'='1", "x` = `x", "a\x00b", "é" * 600, "%27) OR (1=1"])
def test_hostile_ids_and_filters_are_refused_or_harmless(env: dict[str, Any], hostile: str) -> None:
    acme, part = env["acme"], quote(hostile, safe="")
    for path in (f"{ALICE}/memories/{part}", f"{ALICE}/memories/{part}/history"):
        assert acme.get(path).status_code in (404, 422)
    listing = acme.get(f"/v1/apps/acme/users/{part}/memories")
    assert listing.status_code in (200, 422) and (listing.status_code == 422 or listing.json()["items"] == [])
    reply = acme.get(ALICE + "/memories", params={"topic": hostile})
    assert reply.status_code in (200, 422) and (reply.status_code == 422 or reply.json()["items"] == [])
    assert acme.get(ALICE + "/memories", params={"q": hostile}).status_code in (200, 422)
    assert acme.post(ALICE + "/memories:bulk-delete", json={"ids": [hostile]}).status_code in (404, 422)


def test_oversize_and_malformed_bodies(env: dict[str, Any]) -> None:
    acme = env["acme"]
    mid = _items(acme)[0]["memory_id"]
    big = acme.put(f"{ALICE}/memories/{mid}", json={"content": "x" * 30_000})
    assert big.status_code == 413
    streamed = acme.post(ALICE + "/sessions", content=iter([b"{" + b" " * 15_000, b" " * 15_000 + b"}"]),
                         headers={"Content-Type": "application/json"})  # fmt: skip
    assert streamed.status_code == 413
    raw = acme.put(f"{ALICE}/memories/{mid}", content=b"{not json", headers={"Content-Type": "application/json"})
    assert raw.status_code == 422


def test_sessions_are_validated_queued_and_ingested(env: dict[str, Any]) -> None:
    acme, settings = env["acme"], env["settings"]
    line = session_line("acme", "alice", "api-1", "I am allergic to peanuts.", NOW)
    reply = acme.post(ALICE + "/sessions", json=line)
    assert reply.status_code == 202, reply.text
    assert reply.json()["session_id"] == "api-1" and len(reply.json()["stored_id"]) == 32
    assert acme.post(ALICE + "/sessions", json=line).json()["duplicate"] is True
    other_tenant = acme.post(ALICE + "/sessions", json={**line, "user_id": "mallory"})
    assert other_tenant.status_code == 422 and "mallory" in other_tenant.json()["detail"]
    broken = acme.post(ALICE + "/sessions", json={**line, "ended_at": "yesterday-ish", "events": "no"})
    assert broken.status_code == 422 and "ended_at" in broken.json()["detail"]
    assert acme.post(ALICE + "/sessions", json=[line]).status_code == 422
    stored = list(Path(settings.sessions_uri).rglob("*.jsonl"))
    assert len(stored) == 1 and json.loads(stored[0].read_text())["session_id"] == "api-1"
    run_ingest(settings)
    assert [m["content"] for m in _items(acme, q="peanut")] == ["User is allergic to peanuts"]


def test_api_writes_during_a_running_ingest_lose_nothing(env: dict[str, Any]) -> None:
    acme, settings = env["acme"], env["settings"]
    for i, text in enumerate(("I play the cello.", "I drive a red Volvo.", "I grow tomatoes.")):
        assert acme.post(ALICE + "/sessions", json=session_line("acme", "alice", f"c{i}", text, NOW)).status_code == 202
    target = _id_of(acme, "peanut")
    ingest = threading.Thread(target=run_ingest, args=(settings,))
    ingest.start()
    edits = [acme.put(f"{ALICE}/memories/{target}", json={"content": f"User is allergic to peanuts ({n})"})
             for n in range(3)]  # fmt: skip
    ingest.join()
    assert [e.status_code for e in edits] == [200, 200, 200]
    assert acme.get(f"{ALICE}/memories/{target}").json()["content"] == "User is allergic to peanuts (2)"
    texts = {m["content"] for m in _items(acme)}
    assert {"User plays the cello.", "User drives a red Volvo.", "User grows tomatoes."} <= texts


def test_runs_rollback_and_quarantine_for_admins(env: dict[str, Any]) -> None:
    admin, acme = env["admin"], env["acme"]
    runs = admin.get("/v1/runs").json()["items"]
    assert runs and {"run_id", "flow", "counts", "status"} <= set(runs[0])
    edit_run = next(r for r in runs if r["flow"] == "edit")  # newest first: the last edit above
    assert admin.get(f"/v1/runs/{edit_run['run_id']}").json()["run_id"] == edit_run["run_id"]
    assert admin.get("/v1/runs/no-such-run").status_code == 404
    target = _id_of(acme, "peanut")
    assert admin.post(f"/v1/runs/{edit_run['run_id']}:rollback").status_code == 200
    assert acme.get(f"{ALICE}/memories/{target}").json()["content"] == "User is allergic to peanuts (1)"
    assert admin.post(f"/v1/runs/{edit_run['run_id']}:rollback").status_code == 409
    assert admin.get("/v1/quarantine").json()["items"] == []


def test_json_rpc_methods_and_errors(env: dict[str, Any]) -> None:
    acme = env["acme"]

    def rpc(body: Any) -> Any:
        reply = acme.post("/rpc", content=body if isinstance(body, bytes) else json.dumps(body))
        assert reply.status_code in (200, 204), reply.text
        return reply.json() if reply.status_code == 200 else None

    scope = {"app": "acme", "user_id": "alice"}
    got = rpc({"jsonrpc": "2.0", "id": 1, "method": "memory.retrieve", "params": {**scope, "query": "cello", "k": 2}})
    best = got["result"]["memories"][0]
    assert best["summary"] == "User plays the cello." and set(best) >= {"memory_id", "timestamp", "relevance_score"}
    ctx = rpc({"jsonrpc": "2.0", "id": "c", "method": "memory.get_context",
               "params": {**scope, "query": "What car do I drive?", "task_id": "t1", "max_tokens": 120}})  # fmt: skip
    assert "red Volvo" in ctx["result"]["context"] and ctx["result"]["task_id"] == "t1"
    stored = rpc(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "memory.store",
            "params": {
                **scope,
                "interaction": {
                    "messages": [
                        {"role": "user", "content": "I speak Portuguese."},
                        {"role": "assistant", "content": "Olá!"},
                    ]
                },
            },
        }
    )
    assert stored["result"]["queued"] is True and stored["result"]["session_id"].startswith("rpc-")
    codes = {
        "unknown method": ({"jsonrpc": "2.0", "id": 3, "method": "memory.nope", "params": scope}, -32601),
        "not 2.0": ({"id": 4, "method": "memory.retrieve"}, -32600),
        "bad params": ({"jsonrpc": "2.0", "id": 5, "method": "memory.retrieve", "params": {**scope, "k": "x"}}, -32602),
        "other app": (
            {
                "jsonrpc": "2.0",
                "id": 6,
                "method": "memory.retrieve",
                "params": {"app": "other", "user_id": "bob", "query": "milk"},
            },
            -32001,
        ),
        "bad interaction": (
            {
                "jsonrpc": "2.0",
                "id": 7,
                "method": "memory.store",
                "params": {**scope, "interaction": {"messages": [{"role": "user"}]}},
            },
            -32602,
        ),
    }
    for name, (body, code) in codes.items():
        assert rpc(body)["error"]["code"] == code, name
    assert rpc(b"{oops")["error"]["code"] == -32700
    assert rpc([])["error"]["code"] == -32600
    batch = rpc([{"jsonrpc": "2.0", "id": 8, "method": "memory.retrieve", "params": {**scope, "query": "cello"}},
                 {"jsonrpc": "2.0", "method": "memory.retrieve", "params": {**scope, "query": "cello"}}])  # fmt: skip
    assert [a["id"] for a in batch] == [8]
    assert env["anon"].post("/rpc", json={"jsonrpc": "2.0", "id": 1, "method": "memory.retrieve"}).status_code == 401


def test_rate_limit_per_key(tmp_path: Path, env: dict[str, Any]) -> None:
    limited = env["settings"].model_copy(update={"api_rate_limit_per_minute": 3})
    with serve(limited) as url:
        answers = [httpx.get(url + ALICE + "/memories", headers={"Authorization": f"Bearer {ACME_KEY}"}).status_code
                   for _ in range(4)]  # fmt: skip
        other = httpx.get(url + "/v1/apps/other/users/bob/memories", headers={"Authorization": f"Bearer {OTHER_KEY}"})
    assert answers == [200, 200, 200, 429] and other.status_code == 200


def test_erase_user_returns_the_report(env: dict[str, Any]) -> None:
    other = env["other"]
    assert len(_items(other, "/v1/apps/other/users/bob/memories")) == 1
    report = other.delete("/v1/apps/other/users/bob").json()
    assert len(report["memories"]) == 1 and report["memory_rows"] >= 1
    assert _items(other, "/v1/apps/other/users/bob/memories", status="all") == []
    assert len(_items(env["acme"])) > 0  # another tenant untouched


def test_keys_are_hashed_on_load_and_bad_key_files_are_clear_errors(tmp_path: Path, capsys: Any) -> None:
    from flows.cli import main
    from tasks.api.keys import KeyRing, hash_key

    ring = KeyRing([{"key": ACME_KEY, "app": "acme"}, {"key_sha256": hash_key(ADMIN_KEY), "admin": True}])
    acme, admin = ring.principal(ACME_KEY), ring.principal(ADMIN_KEY)
    assert acme is not None and acme.app == "acme" and not acme.admin
    assert admin is not None and admin.admin and ring.principal("acme-key-012345678X") is None
    assert ACME_KEY not in repr(vars(ring))  # only the hash is kept
    bad = tmp_path / "keys.json"
    for content, said in (("{", "cannot read"), ('{"keys": [{"key": "short", "app": "a"}]}', "shorter than 16"),
                          ('{"keys": [{"key": "long-enough-0123456789"}]}', "app")):  # fmt: skip
        bad.write_text(content, encoding="utf-8")
        assert main(["api", "--store", str(tmp_path), "--keys", str(bad)]) == 1
        assert said in capsys.readouterr().err
