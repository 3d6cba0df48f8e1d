"""Waiting for something another thread does (a link coming up, a roll arriving)."""
import time


def wait(cond, timeout: float = 5.0, step: float = 0.005) -> bool:
    """True as soon as `cond()` is; False if it is not within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(step)
    return False


def wait_for(check, what: str, timeout: float = 30.0, step: float = 0.05):
    """`check()`'s first truthy value; an AssertionError naming `what` if none comes
    within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(step)
    raise AssertionError(f"waited {timeout:.0f} s for {what}")
