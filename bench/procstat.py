"""A process's memory as the kernel counts it (/proc/<pid>/status), for the benches."""
from __future__ import annotations


def status_kb(pid: int | str = "self", key: str = "VmRSS") -> int:
    """`key` of /proc/<pid>/status in KiB (VmRSS: resident now; VmHWM: its peak); 0 when
    the line is missing."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0
