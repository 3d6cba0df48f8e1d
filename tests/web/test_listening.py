"""Issue 21 #9: `serve` and `hall` say every address they listen on (with the example
config and the hall's defaults, that is every network: they printed 127.0.0.1 alone),
and a token never goes to the log inside a URL. The real commands as subprocesses."""
from __future__ import annotations

import re
import subprocess
import sys
import urllib.request

import pytest

from serve_config import write_config
from web.addresses import interface_addresses

REFEREE = [sys.executable, "-m", "controller.cli"]


def first_line(args: list[str], marker: str) -> tuple[str, str]:
    """The command's line holding `marker`, and everything else it printed by then."""
    proc = subprocess.Popen(REFEREE + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = next((l for l in proc.stdout if marker in l), "")
        urls = re.findall(r"http://\S+/", line)
        for url in urls:  # each printed address answers
            with urllib.request.urlopen(url, timeout=10) as r:
                assert r.status == 200, url
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    return line, out + err


def check_every_address(line: str) -> None:
    urls = re.findall(r"http://([\d.]+):\d+/", line)
    assert urls == interface_addresses() and urls[0] == "127.0.0.1", line
    assert "(listening on every network of this machine)" in line, line


def test_serve_on_every_network_prints_every_address(tmp_path):
    line, _ = first_line(["serve", "--config", str(write_config(tmp_path, 0, host="0.0.0.0"))], "status page:")
    check_every_address(line)
    assert re.search(r"\(admin token: [\w-]{16}\)", line), line


@pytest.mark.parametrize("given", [False, True])
def test_the_hall_prints_every_address_and_never_a_token_in_a_url(tmp_path, given):
    token = "a-given-hall-token-0123"
    args = ["hall", "--broker", "127.0.0.1", "--port", "1", "--http-port", "0", "--data", str(tmp_path / "hall")]
    line, printed = first_line(args + (["--token", token] if given else []), "hall page:")
    check_every_address(line)
    assert "token=" not in printed
    if given:
        assert token not in printed and "admin token" not in printed
    else:
        assert re.search(r"  \(admin token: [\w-]{16}\)$", line.rstrip()), line
