"""The package's layers only point down, and no module or package imports itself in a circle.

Every import counts, including those inside functions and under ``TYPE_CHECKING``: an
upward import deferred to call time is still a cycle. The order is the README's Layout.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "factjudge"

# Bottom to top. A module may import from its own layer (without a cycle) and from layers below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "threshold", "grounds", "explain", "records", "transcript", "resources", "version",
     "environment"),
    ("text",),
    ("llm",),
    ("prompts",),
    ("retrieval",),
    ("agents",),
    ("sources",),
    ("judges",),
    ("config", "flags"),
    ("checking",),
    ("eval",),
    ("integrations", "testing"),
    ("cli", ""),  # "" is the package itself: factjudge/__init__.py, the public names
)


def module_name(path: Path) -> str:
    parts = ["factjudge", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    """The index of the layer whose entry is the longest prefix of ``module``."""
    rest = module.removeprefix("factjudge").removeprefix(".")
    best, length = -1, -1
    for index, names in enumerate(LAYERS):
        for name in names:
            matches = rest == name or rest.startswith(f"{name}.") or (name == "" and rest == "")
            if matches and len(name) > length:
                best, length = index, len(name)
    return best


def imports_of(module: str) -> Iterator[tuple[str, int]]:
    """The factjudge modules ``module`` imports, with line numbers; ``from x import y`` is x.y if a module."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]  # `import factjudge.llm.base.X` names a module
            if target.startswith("factjudge") and target != module:
                yield target, node.lineno


GRAPH = {module: sorted({target for target, _ in imports_of(module)}) for module in MODULES}


def cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def unit_of(module: str) -> str:
    """The top-level package or module a module belongs to: factjudge.retrieval.kb -> factjudge.retrieval."""
    return ".".join(module.split(".")[:2])


def test_every_module_has_a_layer() -> None:
    assert [m for m in MODULES if layer_of(m) < 0] == []


def test_no_import_points_to_a_higher_layer() -> None:
    upward = [
        f"{MODULES[module].relative_to(PACKAGE.parent)}:{line} imports {target}"
        for module in MODULES
        for target, line in imports_of(module)
        if layer_of(target) > layer_of(module)
    ]
    assert upward == []


def test_no_import_cycle_between_modules() -> None:
    assert cycles(GRAPH) == []


def test_no_import_cycle_between_packages() -> None:
    units: dict[str, set[str]] = {}
    for module, targets in GRAPH.items():
        units.setdefault(unit_of(module), set()).update(
            unit_of(t) for t in targets if unit_of(t) != unit_of(module))
    assert cycles({unit: sorted(targets) for unit, targets in units.items()}) == []


def test_the_checker_finds_a_cycle_and_resolves_relative_imports() -> None:
    # The test's own machinery, on a made-up graph and on a real relative import.
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert layer_of("factjudge.llm.base") < layer_of("factjudge.prompts") < layer_of("factjudge.cli")
    assert unit_of("factjudge.retrieval.web_search.base") == "factjudge.retrieval"
