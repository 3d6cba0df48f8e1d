"""Every `referee ...` command a page of the documentation shows in a code block parses
with the real command line (controller/cli.py) and runs as written in a fresh folder, as
a newcomer's first try would: it works, or it fails with a sentence (a missing
referee.toml, no die module plugged in), never a traceback; a demo that runs until
stopped is stopped with Ctrl-C once its page is up and ends with its summary. Every
option of `referee demo` has its help. And every link between the pages leads to a file."""
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import build_parser
from support import ctrl_c_restored

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "hardware.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
COMMAND = re.compile(r"(?:^|[|;&(]\s*|^\$\s+)(?:\.venv/bin/)?(referee\s[^|;&<>#\n]*)")


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


RUNS_UNTIL_STOPPED = ("demo", "serve")


def run_as_written(command: str, folder: Path) -> tuple[int, str, str]:
    """`command` in `folder` with nothing on stdin, the venv's referee being this
    checkout's; one that runs until stopped gets Ctrl-C once its page is up (a demo on
    any free port: the machine runs other tests)."""
    argv = shlex.split(command)[1:]
    stops = argv[0] in RUNS_UNTIL_STOPPED
    if argv[0] == "demo":
        argv += ["--port", "0"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_DEBUG": ""}
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", *argv], cwd=folder, env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=ctrl_c_restored if stops else None)
    try:
        if stops:
            lines = []
            for line in proc.stdout:
                lines.append(line)
                if "status page:" in line:
                    break
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
            return proc.returncode, "".join(lines) + out, err
        out, err = proc.communicate(timeout=120)
        return proc.returncode, out, err
    finally:
        proc.kill()


@pytest.mark.parametrize("page, command", COMMANDS, ids=[f"{p}: {c}" for p, c in COMMANDS])
def test_a_command_the_docs_show_runs_or_says_why_not(page, command, tmp_path):
    status, out, err = run_as_written(command, tmp_path)
    assert "Traceback" not in err, f"{page}: `{command}` ended in a traceback:\n{err[-2000:]}"
    if command.split()[1] in RUNS_UNTIL_STOPPED and status == 130:  # Ctrl-C's own status
        status = 0
    if status != 0:  # a fresh clone lacks what it needs (a config, a board): one sentence says so
        last = err.strip().splitlines()[-1] if err.strip() else ""
        assert last.startswith("referee "), f"{page}: `{command}` failed ({status}) without saying why: {err[-500:]}"
    if command.split()[1] == "demo":
        assert status == 0 and "summary:" in out and "deleted" in out, (out[-1000:], err[-1000:])


def test_every_option_of_the_demo_is_helped():
    demo = next(a for a in build_parser()._subparsers._group_actions[0].choices.items() if a[0] == "demo")[1]
    unhelped = [a.option_strings for a in demo._actions if a.option_strings and not a.help]
    assert unhelped == []
    text = demo.format_help()
    assert "default 8000" in text and "until stopped" in text and "--seed" in text


def test_the_readme_says_how_to_reach_the_referee_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ".venv/bin/activate" in readme and ".venv/bin/referee" in readme


LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)#\s]+)")


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_link_between_the_pages_leads_to_a_file(page):
    missing = [target for target in LINK.findall(page.read_text(encoding="utf-8"))
               if not (page.parent / target).exists()]
    assert missing == []
