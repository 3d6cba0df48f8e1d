"""What test modules import by name from every folder: the gate for a missing tool, a
service's offline config and a way to hold the referee's thread. Kept out of conftest.py,
whose module name each test folder's own conftest.py would shadow."""
import os

import pytest

IN_CI = os.environ.get("CI") == "true"


def need(tool_ok: bool, why: str):
    """Skip for a missing tool on a person's machine; under CI=true a missing tool fails."""
    if tool_ok:
        return
    if IN_CI:
        pytest.fail(f"CI=true and {why}")
    pytest.skip(why)


def offline_config(tmp_path, source, game: str = "connect4", variant: str | None = None):
    """A service's config as the tests run one: the camera from `source` (a folder of
    frames), gpiozero's mock pins, no die module, no voice, the journal under tmp_path."""
    from controller.config import default

    config = default()
    config.game.name = game
    if variant:
        config.game.variant = variant
    config.camera.source = str(source)
    config.gpio.factory = "mock"
    config.die_module.port = "off"
    config.data.folder = str(tmp_path / "data")
    config.voice.enabled = False  # the voice's own tests turn it on (tests/controller/test_voice.py)
    return config


class Hang:
    """A command that holds the referee's thread (see `hang_referee`)."""


def hang_referee(service, monkeypatch):
    """Make the command Hang() hold the service's referee thread until released, as a
    command stuck in the rules would; (hung, release) events."""
    import threading

    hung, release = threading.Event(), threading.Event()
    original = service.table.command
    monkeypatch.setattr(service.table, "command", lambda command: (hung.set(), release.wait())
                        if isinstance(command, Hang) else original(command))
    return hung, release
