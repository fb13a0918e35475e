"""Types (issue 22, part 5): `mypy --strict` and pyright (basedpyright, which bundles pyright and a
Node runtime in its PyPI wheel) pass on the package and on tests/typed/example.py, whose
assert_type lines state what a user's checker infers and whose marked lines are errors both
checkers must report (an unneeded ignore fails either check). The settings are in
bindings/python/pyproject.toml. The example also runs."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1]  # bindings/python


def run(*command):
    env = dict(os.environ, PYTHONPATH=str(HERE))
    return subprocess.run(command, cwd=HERE, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (make test installs it)")
def test_mypy_strict_passes():
    r = run(sys.executable, "-m", "mypy")
    assert r.returncode == 0 and "Success: no issues found" in r.stdout, r.stdout + r.stderr


@pytest.mark.skipif(importlib.util.find_spec("basedpyright") is None,
                    reason="basedpyright is not installed (make test installs it)")
def test_pyright_passes():
    r = run(sys.executable, "-m", "basedpyright")
    assert r.returncode == 0 and "0 errors, 0 warnings" in r.stdout, r.stdout + r.stderr


def test_the_typed_example_runs():
    r = run(sys.executable, str(HERE / "tests" / "typed" / "example.py"))
    assert r.returncode == 0, r.stdout + r.stderr
