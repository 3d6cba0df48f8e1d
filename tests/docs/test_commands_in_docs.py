"""Every `referee ...` command a page of the documentation shows in a code block parses
with the real command line (controller/cli.py): a renamed option or command fails here,
not in a reader's terminal. And every link between the pages leads to a file."""
import re
import shlex
from pathlib import Path

import pytest

from controller.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "hardware.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
COMMAND = re.compile(r"(?:^|[|;&(]\s*|^\$\s+)(referee\s[^|;&<>#\n]*)")


def shown_commands() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        for block in FENCE.findall(page.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                for command in COMMAND.findall(line.strip()):
                    out.append((f"{page.relative_to(ROOT)}", command.strip()))
    return out


COMMANDS = shown_commands()


def test_the_docs_show_commands():
    assert len(COMMANDS) >= 15  # the pages do show commands; a broken extraction finds none


@pytest.mark.parametrize("page, command", COMMANDS, ids=[f"{p}: {c}" for p, c in COMMANDS])
def test_a_command_the_docs_show_parses(page, command):
    argv = shlex.split(command)[1:]
    try:
        build_parser().parse_args(argv)
    except SystemExit as exc:
        pytest.fail(f"{page}: `{command}` does not parse (exit {exc.code})")


LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)#\s]+)")


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_link_between_the_pages_leads_to_a_file(page):
    missing = [target for target in LINK.findall(page.read_text(encoding="utf-8"))
               if not (page.parent / target).exists()]
    assert missing == []
