"""The import rules of docs/architecture.md: which of our packages may import which.

Data flows one way, photo -> tiles -> hand -> score -> ledger: ``engine`` imports nothing of ours,
``vision`` only the engine's tile codes, ``training`` (not shipped) may use ``vision`` and
``engine`` but nothing shipped imports it, and ``companion`` glues ``vision`` to ``engine``; ``tests`` may
import anything.
Every import in every module counts, function-local ones included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: package -> the packages of ours it may import (itself always allowed)
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "vision": {"engine"},
    "training": {"vision", "engine"},
    "companion": {"engine", "vision"},
    "models": set(),
    "web": set(),
    "tests": {"engine", "vision", "training", "companion", "models", "web"},
}
OURS = set(ALLOWED)


def _imports(path: Path, package: str) -> list[tuple[int, str]]:
    """(line, top-level package) of every import of one of our packages in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [package] if node.level else [node.module or ""]
        else:
            continue
        found += [(node.lineno, name.split(".")[0]) for name in names if name.split(".")[0] in OURS]
    return found


def _modules() -> list[tuple[str, Path]]:
    return [(pkg, path) for pkg in sorted(ALLOWED) for path in sorted((ROOT / pkg).rglob("*.py"))]


@pytest.mark.parametrize(
    "package, path", _modules(), ids=lambda v: str(v.relative_to(ROOT)) if isinstance(v, Path) else v
)
def test_module_imports_only_what_its_package_may(package: str, path: Path) -> None:
    broken = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for line, target in _imports(path, package)
        if target != package and target not in ALLOWED[package]
    ]
    assert not broken, "import rule of docs/architecture.md broken:\n" + "\n".join(broken)


def test_every_package_of_ours_has_a_rule() -> None:
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages <= OURS, f"packages without an import rule in docs/architecture.md: {packages - OURS}"


def test_the_rule_catches_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("def f():\n    from companion import app\n    import vision.photo\n")
    assert _imports(module, "engine") == [(2, "companion"), (3, "vision")]
