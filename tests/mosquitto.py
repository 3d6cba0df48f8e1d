"""A real Mosquitto broker on loopback for the hall's tests and bench/hall.py: its own
config on a free port (anonymous, or a password file and an ACL made with
mosquitto_passwd), started in the foreground, stopped and started again on the same
port to cut every client off."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or next(
    (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()), None)
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd")

# each table may write and read only under its own name (its user name); the hall all
ACL = """user hall
topic readwrite referee/#

pattern readwrite referee/%u/#
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    def __init__(self, folder: Path, users: dict[str, str] | None = None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        lines = [f"listener {self.port} 127.0.0.1", "persistence false"]
        if os.geteuid() == 0:  # run as root (a container, CI), it would drop to a user who cannot read here
            lines.append("user root")
        if users:
            passwords = self.folder / "passwords"
            passwords.touch()
            for user, password in users.items():
                subprocess.run([MOSQUITTO_PASSWD, "-b", str(passwords), user, password], check=True,
                               capture_output=True)
            (self.folder / "acl").write_text(ACL)
            lines += ["allow_anonymous false", f"password_file {passwords}", f"acl_file {self.folder / 'acl'}"]
        else:
            lines += ["allow_anonymous true"]
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Mosquitto":
        self.log = open(self.folder / "mosquitto.log", "ab")
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {(self.folder / 'mosquitto.log').read_text()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within 10 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
            self.log.close()
        self.proc = None

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0
