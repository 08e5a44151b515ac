"""HTTP API overhead at 100k memories: p50/p95 of ``POST /recall`` and ``GET /memories`` against the
Python functions behind them on the same queries, and the page's load time for a user with 10,000 memories.

Rows are synthetic (``recall_bench.synthetic_batches``: random unit vectors, templated text), written
straight into the memories table and clustered and indexed by the pipeline's own ``ensure_indexes``.
The server runs as ``memory-pipeline api`` in its own process (a client in the server's process would
share its GIL); the Python side calls the same functions in this process, a Recaller kept open as the
server keeps one. The page is loaded in headless chromium (Playwright), timed to its ``load`` event.

    python benchmarks/api_bench.py                   # 100k memories, one user holding 10k
    python benchmarks/api_bench.py --n 20000 --big 5000 --queries 50
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import httpx
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recall_bench import QUERIES, synthetic_batches

from tasks.control.browse import MemoryQuery, memory_page
from tasks.providers import build_embedder
from tasks.recall.context import format_context
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES, Store, open_existing_store

KEY = "bench-admin-key-0123456789"


def build(root: Path, n: int, big: int, users: int) -> Settings:
    """``n`` memories of app "bench": ``big`` of them for user "big", the rest over ``users`` users."""
    settings = Settings(store_uri=str(root / "store"), sessions_uri=str(root / "sessions"), cluster_min_rows=1)
    embedder = build_embedder(settings)
    store = Store(settings.store_uri, embedder.model, embedder.dim)
    table = store.table(MEMORIES)
    start = time.perf_counter()
    for batch in synthetic_batches(n - big, users, embedder.dim, seed=7):
        table.add(batch)
    for batch in synthetic_batches(big, 1, embedder.dim, seed=8, first=n - big):
        column = batch.schema.get_field_index("user_id")
        table.add(batch.set_column(column, "user_id", pa.array(["big"] * batch.num_rows)))
    written = time.perf_counter() - start
    start = time.perf_counter()
    built = ensure_indexes(store, settings)
    print(f"{n:,} memories ({big:,} of user 'big', the rest over {users} users): written in {written:.1f} s, "
          f"clustered + indexed in {time.perf_counter() - start:.1f} s ({', '.join(built)})")  # fmt: skip
    return settings


def timed(label: str, calls: list[Callable[[], object]]) -> list[float]:
    for call in calls[:5]:
        call()  # warm-up: index pages, tokenizer, connections
    latencies = []
    for call in calls:
        start = time.perf_counter()
        call()
        latencies.append((time.perf_counter() - start) * 1000)
    q = statistics.quantiles(latencies, n=100)
    print(f"  {label:<34} p50 {statistics.median(latencies):7.1f} ms   p95 {q[94]:7.1f} ms   (n={len(latencies)})")
    return latencies


def serve(settings: Settings, root: Path) -> tuple[subprocess.Popen[bytes], str]:
    keys = root / "keys.json"
    keys.write_text(json.dumps({"keys": [{"key": KEY, "admin": True}]}), encoding="utf-8")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = os.environ | {"MEMORY_PIPELINE_API_RATE_LIMIT_PER_MINUTE": "0", "MEMORY_PIPELINE_CLUSTER_MIN_ROWS": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "api", "--store", settings.store_uri, "--port", str(port),
         "--keys", str(keys)], env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return server, url
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the API server did not start")


def page_loads(url: str, user_path: str, runs: int, big: int) -> None:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if chromium is None:
        print("  page load: skipped (no chromium)")
        return
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(base_url=url)
        page.goto("/ui")
        page.fill("#key", KEY)
        page.click("button[type=submit]")
        for label, suffix in ((f"list page (50 of {big:,})", ""), ("search page (server-side)", "?q=parrot")):
            page.goto(user_path + suffix)  # warm-up
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                page.goto(user_path + suffix, wait_until="load")
                times.append((time.perf_counter() - start) * 1000)
            shown = page.locator("li.memory").count()
            cookies = {c["name"]: c["value"] for c in page.context.cookies()}
            served = []
            for _ in range(runs):  # the server's share: the same page fetched without a browser
                start = time.perf_counter()
                httpx.get(url + user_path + suffix, cookies=cookies, timeout=60).raise_for_status()
                served.append((time.perf_counter() - start) * 1000)
            print(f"  {label + ' HTML alone':<34} p50 {statistics.median(served):7.1f} ms")
            q = statistics.quantiles(times, n=20)
            print(f"  {label:<34} p50 {statistics.median(times):7.1f} ms   p95 {q[18]:7.1f} ms   "
                  f"({shown} lines shown, n={runs})")  # fmt: skip
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--big", type=int, default=10_000, help="memories of the one big user (page load)")
    parser.add_argument("--users", type=int, default=90)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--page-runs", type=int, default=20)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="api-bench-"))
    try:
        settings = build(root, args.n, args.big, args.users)
        pick = random.Random(1)
        plan = [(pick.choice(QUERIES), f"user-{pick.randrange(args.users)}") for _ in range(args.queries)]
        server, url = serve(settings, root)
        client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {KEY}"}, timeout=60)
        try:
            store = open_existing_store(settings)  # one read handle, as the server keeps one
            with Recaller(settings, store=store) as recaller:

                def py_recall(q: str, u: str) -> object:
                    result = recaller.recall_result(q, "bench", u, k=10)
                    return format_context(result.hits, settings.context_max_tokens)

                def http_recall(q: str, u: str) -> object:
                    reply = client.post(f"/v1/apps/bench/users/{u}/recall", json={"query": q, "k": 10})
                    reply.raise_for_status()
                    return reply.json()

                def py_list(u: str) -> object:
                    return memory_page(store, "bench", u, MemoryQuery(limit=50))

                def http_list(u: str) -> object:
                    reply = client.get(f"/v1/apps/bench/users/{u}/memories", params={"limit": 50})
                    reply.raise_for_status()
                    return reply.json()

                per_user = (args.n - args.big) // args.users
                print(f"recall and list for random users (~{per_user:,} memories each):")
                rp = timed("Python recall_result + context", [partial(py_recall, q, u) for q, u in plan])
                rh = timed("HTTP POST /recall", [partial(http_recall, q, u) for q, u in plan])
                lp = timed("Python memory_page (50)", [partial(py_list, u) for _, u in plan])
                lh = timed("HTTP GET /memories (50)", [partial(http_list, u) for _, u in plan])
                runs = max(10, args.queries // 4)
                print(f"list for the user with {args.big:,} memories:")
                bp = timed("Python memory_page (50)", [partial(py_list, "big")] * runs)
                bh = timed("HTTP GET /memories (50)", [partial(http_list, "big")] * runs)
            med = statistics.median
            print(f"overhead ratio (HTTP p50 / Python p50): recall {med(rh) / med(rp):.2f}, "
                  f"list {med(lh) / med(lp):.2f}, big list {med(bh) / med(bp):.2f}")  # fmt: skip
            print("the page in headless chromium:")
            page_loads(url, "/ui/apps/bench/users/big", args.page_runs, args.big)
        finally:
            client.close()
            server.terminate()
            server.wait(timeout=30)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
