"""Switch one rule module of ``tasks/providers/`` off in this process, without editing any code.

Every function the module defines is replaced, wherever it is referenced (module attributes of every
loaded ``tasks`` / ``evaluation`` module, and the lists, tuples and dicts at their top level that hold
it), by its "rule did not fire" answer: ``None`` for an optional result, an empty container for a
collection, the unchanged first text argument for a text rewrite, and for a yes/no predicate the
answer it gave most often on ordinary text (recorded by :func:`record_defaults` on a baseline run, so
``on_record`` stays True and ``is_reaction`` stays False). A function whose result has none of these
shapes (a fixed tuple, an object) stays on and is listed, so a row says what it really switched.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import tasks

#: Modules of ``tasks/providers/`` that hold no English rules: protocols, factory, models, clients, servers.
NOT_RULES = frozenset(
    {
        "__init__", "base", "onnx_embedder", "minilm_graph", "openai_client", "openai_consolidator",
        "openai_embedder", "openai_extractor", "openai_slots", "openai_summarizer", "openai_usage",
        "local_server", "fallback", "concurrent", "judge",
    }
)  # fmt: skip
#: The providers themselves: switching one off is switching the pipeline off, so they are not ablated.
PROVIDERS = frozenset({"local_extractor", "local_consolidator", "local_summarizer"})
PROVIDERS_DIR = Path(tasks.__file__).parent / "providers"
_SKIP_IMPORT = ("tasks.integrations.adk",)


def rule_modules() -> list[str]:
    """Every module of ``tasks/providers/`` holding English rules, by name (the providers included)."""
    return sorted(p.stem for p in PROVIDERS_DIR.glob("*.py") if p.stem not in NOT_RULES)


def ablatable() -> list[str]:
    return [m for m in rule_modules() if m not in PROVIDERS]


def rule_lines(names: list[str] | None = None) -> int:
    """Lines of the rule modules (every line of the file, as ``wc -l`` counts them)."""
    chosen = names if names is not None else rule_modules()
    return sum(len((PROVIDERS_DIR / f"{n}.py").read_text(encoding="utf-8").splitlines()) for n in chosen)


def load_all() -> None:
    """Import every ``tasks`` module, so that every reference to a rule is in place before patching."""
    for info in pkgutil.walk_packages(tasks.__path__, "tasks."):
        if info.name.startswith(_SKIP_IMPORT):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional extra not installed: nothing of it runs in an evaluation
            continue


def _functions(module: ModuleType) -> Iterator[tuple[str, FunctionType]]:
    for name, obj in vars(module).items():
        if isinstance(obj, FunctionType) and obj.__module__ == module.__name__:
            yield name, obj


def _returns(fn: FunctionType) -> str:
    return str(fn.__annotations__.get("return", "")).replace("typing.", "").strip()


def _empty(ret: str) -> Any:
    head = ret.split("[", 1)[0].strip()
    if head in {"list", "Sequence", "Iterable", "Collection"}:
        return []
    if head == "tuple" and (ret == "tuple" or ret.endswith("...]")):
        return ()
    if head in {"set", "AbstractSet"}:
        return set()
    if head == "frozenset":
        return frozenset()
    if head in {"dict", "Mapping"}:
        return {}
    return _NONE


_NONE = object()


def neutral(fn: FunctionType, defaults: dict[str, bool]) -> Callable[..., Any] | None:
    """The no-op standing in for ``fn``, or None when its result has no "did not fire" shape."""
    ret, key = _returns(fn), f"{fn.__module__}.{fn.__qualname__}"
    if ret == "bool":
        value = defaults.get(key, False)
        return lambda *a, **k: value
    if ret == "None" or ret.endswith("| None") or ret.startswith(("None |", "Optional[")):
        return lambda *a, **k: None
    if ret in {"Iterator", "Generator"} or ret.startswith(("Iterator[", "Generator[")):
        return lambda *a, **k: iter(())
    empty = _empty(ret)
    if empty is not _NONE:
        return lambda *a, **k: type(empty)()
    if ret == "str":
        return lambda *a, **k: next((x for x in a if isinstance(x, str)), "")
    if ret in {"int", "float"}:
        return lambda *a, **k: 0
    return None


def _patch_refs(swap: dict[int, Callable[..., Any]]) -> int:
    """Replace every reference to a swapped function in loaded project modules; the count of references."""
    count = 0
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("tasks", "evaluation")):
            continue
        for attr, value in list(vars(module).items()):
            if id(value) in swap:
                setattr(module, attr, swap[id(value)])
                count += 1
            elif isinstance(value, (list, tuple)) and any(id(v) in swap for v in value):
                new = [swap.get(id(v), v) for v in value]
                if isinstance(value, list):
                    value[:] = new
                elif type(value) is tuple:
                    setattr(module, attr, tuple(new))
                count += 1
            elif isinstance(value, dict) and any(id(v) in swap for v in value.values()):
                for k, v in list(value.items()):
                    if id(v) in swap:
                        value[k] = swap[id(v)]
                count += 1
    return count


def switch_off(
    module_name: str, defaults: dict[str, bool] | None = None, *, everything: bool = True
) -> dict[str, list[str]]:
    """Switch ``tasks.providers.<module_name>`` off in this process; what was switched and what stayed on.

    ``everything`` imports every ``tasks`` module first (an evaluation); without it only the modules
    already imported are patched (a test that imported what it looks at)."""
    if everything:
        load_all()
    module = importlib.import_module(f"tasks.providers.{module_name}")
    swap: dict[int, Callable[..., Any]] = {}
    off: list[str] = []
    kept: list[str] = []
    for name, fn in _functions(module):
        stand_in = neutral(fn, defaults or {})
        if stand_in is None:
            kept.append(name)
        else:
            swap[id(fn)] = stand_in
            off.append(name)
    _patch_refs(swap)
    return {"off": off, "kept_on": kept}


def record_defaults(modules: list[str]) -> Callable[[], dict[str, bool]]:
    """Wrap every bool rule of ``modules`` to count its answers; the returned call gives the majorities."""
    load_all()
    counts: dict[str, Counter[bool]] = {}
    swap: dict[int, Callable[..., Any]] = {}
    for module_name in modules:
        module = importlib.import_module(f"tasks.providers.{module_name}")
        for _, fn in _functions(module):
            if _returns(fn) != "bool":
                continue
            key = f"{fn.__module__}.{fn.__qualname__}"
            counts[key] = Counter()

            def counted(*a: Any, _fn: FunctionType = fn, _key: str = key, **k: Any) -> Any:
                out = _fn(*a, **k)
                counts[_key][bool(out)] += 1
                return out

            swap[id(fn)] = counted
    _patch_refs(swap)
    return lambda: {k: c.most_common(1)[0][0] for k, c in counts.items() if c}


def trace_firing(modules: list[str], defaults: dict[str, bool]) -> Callable[[], dict[str, dict[str, int]]]:
    """Wrap every switchable function of ``modules`` to count the calls whose answer differs from its no-op's.

    A module none of whose functions ever answered differently on a run would, switched off, give that run
    exactly the same figures (the pipeline is deterministic): its ablation row is the baseline, measured.
    The returned call gives, per module, ``{"calls": n, "fired": m}``.
    """
    load_all()
    tally: dict[str, Counter[str]] = {m: Counter() for m in modules}
    swap: dict[int, Callable[..., Any]] = {}
    for module_name in modules:
        module = importlib.import_module(f"tasks.providers.{module_name}")
        for _, fn in _functions(module):
            stand_in = neutral(fn, defaults)
            if stand_in is None:
                continue

            def traced(
                *a: Any, _fn: FunctionType = fn, _off: Callable[..., Any] = stand_in, _m: str = module_name, **k: Any
            ) -> Any:
                out = _fn(*a, **k)
                tally[_m]["calls"] += 1
                off = _off(*a, **k)
                if not _same(out, off):
                    tally[_m]["fired"] += 1
                return out

            swap[id(fn)] = traced
    _patch_refs(swap)
    return lambda: {m: {"calls": c["calls"], "fired": c["fired"]} for m, c in tally.items()}


def _same(out: Any, off: Any) -> bool:
    if isinstance(off, Iterator):
        return False  # an iterator cannot be compared without consuming it: counted as fired
    try:
        return (bool(out == off) and type(out) is type(off)) or (out is None and off is None) or (not out and not off)
    except Exception:
        return False


def load_defaults(path: Path) -> dict[str, bool]:
    return {str(k): bool(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()} if path.is_file() else {}


def signature_note(module_name: str) -> str:
    """How many functions of a module the switch turns off, e.g. "12/14"."""
    module = importlib.import_module(f"tasks.providers.{module_name}")
    fns = list(_functions(module))
    return f"{sum(neutral(fn, {}) is not None for _, fn in fns)}/{len(fns)}"


__all__ = ["ablatable", "record_defaults", "rule_lines", "rule_modules", "switch_off", "trace_firing"]
