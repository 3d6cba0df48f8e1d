"""sd_notify over a real unix datagram socket (controller/systemd.py): `referee serve`
says READY=1 once it serves, WATCHDOG=1 from the referee's thread at half the interval,
and STOPPING=1 on its way out; a referee thread that hangs stops the heartbeats, so the
watchdog (WatchdogSec in hardware.md's unit) restarts it."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

from controller.config import Config
from controller.service import Service
from controller.systemd import Notifier
from support import Hang, hang_referee
from serve_config import write_config


def listener(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify.sock")
    sock.bind(path)
    sock.settimeout(0.1)
    return sock, path


def received(sock, seconds: float) -> list[tuple[float, str]]:
    out, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            out.append((time.monotonic(), sock.recv(4096).decode()))
        except socket.timeout:
            pass
    return out


def test_serve_says_ready_beats_the_watchdog_and_says_stopping(tmp_path):
    sock, path = listener(tmp_path)
    env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="1000000")  # beats every 0.5 s
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "serve", "--config",
                             str(write_config(tmp_path, 0))], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        got = []
        deadline = time.monotonic() + 30
        while not any(m.startswith("READY=1") for _, m in got) and time.monotonic() < deadline:
            got += received(sock, 0.2)
        got += received(sock, 2.6)
        beats = [t for t, m in got if m == "WATCHDOG=1"]  # timed as they arrive, while it runs
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        got += received(sock, 0.3)
    finally:
        proc.kill()
        sock.close()
    messages = [m for _, m in got]
    assert any(m.startswith("READY=1\nSTATUS=serving on port") for m in messages), messages
    assert len(beats) >= 4 and max(b - a for a, b in zip(beats, beats[1:])) < 1.0  # within the interval
    assert messages[-1] == "STOPPING=1"


def test_a_hung_referee_thread_stops_the_heartbeats(tmp_path, monkeypatch):
    sock, path = listener(tmp_path)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    config = Config(path="(test)")
    config.data.folder = str(tmp_path / "data")
    service = Service(config, camera=False, devices=False)
    hung, release = hang_referee(service, monkeypatch)
    service.start()
    try:
        assert [m for _, m in received(sock, 0.5)].count("WATCHDOG=1") >= 3
        service.submit(Hang(), wait=False)  # the referee's thread hangs in a command
        assert hung.wait(5)
        received(sock, 0.05)  # a heartbeat sent just before it took the command
        assert received(sock, 0.6) == []  # no heartbeat: systemd would restart the service
        release.set()
        assert "WATCHDOG=1" in [m for _, m in received(sock, 0.4)]
    finally:
        release.set()
        service.stop()
        sock.close()


def test_outside_systemd_nothing_is_sent_and_an_abstract_address_is_understood():
    assert Notifier({}).send("READY=1") is False and Notifier({}).every_s is None
    assert Notifier({"NOTIFY_SOCKET": "@referee"}).address == "\0referee"
    assert Notifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"}).every_s is None
    assert Notifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "4000000"}).every_s == 2.0
