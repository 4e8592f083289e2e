"""The README's Python example runs as written (from the repository root)."""

import os
import re

from conftest import REPO


def test_readme_example_runs():
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README has no Python example"
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        for code in blocks:
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
