"""Issue 13 #7 #8: `referee serve` starting on a rig that is not ready: a port in use or
an address that is not this machine's is one line, and the admin token is printed only
when it was generated (so a configured one never lands in the system log). The real
command in a subprocess, on a folder of images as its camera."""
from __future__ import annotations

import re
import socket
import subprocess
import sys

import pytest

from serve_config import write_config


def serve(config, *extra):
    return subprocess.run([sys.executable, "-m", "controller.cli", "serve", "--config", str(config), *extra],
                          capture_output=True, text=True, timeout=60)


def test_a_port_in_use_is_one_line_saying_what_to_try(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        run = serve(write_config(tmp_path, port))
    finally:
        taken.close()
    assert run.returncode == 1
    assert run.stderr == f"referee serve: port {port} is in use: try --port {port + 1}\n"


def test_a_host_that_is_not_this_machines_is_one_line(tmp_path):
    run = serve(write_config(tmp_path, 0, host="192.0.2.1"))  # TEST-NET-1: never this machine
    assert run.returncode == 1 and run.stderr.count("\n") == 1
    assert "host '192.0.2.1' is not an address of this machine" in run.stderr


@pytest.mark.parametrize("configured", [True, False])
def test_the_admin_token_is_printed_only_when_it_was_generated(tmp_path, configured):
    token = "a-configured-token-0123" if configured else ""
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "serve", "--config",
                             str(write_config(tmp_path, 0, token=token))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = next(l for l in proc.stdout if "status page:" in l)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    if configured:
        assert "admin token" not in line + out + err and token not in line + out + err
    else:
        assert re.search(r"\(admin token: [\w-]{16}\)", line), line
