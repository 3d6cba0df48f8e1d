"""Shared fixtures. Hardware is simulated in one place: gpiozero's MockFactory with PWM
pins (set here for every test) and the firmware simulator behind a pseudo-terminal."""
import os
from pathlib import Path

import pytest

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")

IN_CI = os.environ.get("CI") == "true"
CHROMIUM = "/usr/bin/chromium"  # Debian's chromium, as CI installs it
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


RIG = Path(__file__).resolve().parent / "rig"


def pytest_collection_modifyitems(config, items):
    """The rig's end-to-end runs (tests/rig/: the service, the Table or the demo on
    rendered or recorded frames) are marked `rig`, the rest mirror the code they test
    (tests/<package>/test_<module>.py): `pytest -m rig` runs the runs alone, `-m "not
    rig"` the rest; `make test` runs both."""
    for item in items:
        if RIG in Path(item.fspath).parents:
            item.add_marker(pytest.mark.rig)


def need(tool_ok: bool, why: str):
    """Skip for a missing tool on a person's machine; under CI=true a missing tool fails."""
    if tool_ok:
        return
    if IN_CI:
        pytest.fail(f"CI=true and {why}")
    pytest.skip(why)


def offline_config(tmp_path, source, game: str = "connect4", variant: str | None = None):
    """A service's config as the tests run one: the camera from `source` (a folder of
    frames), gpiozero's mock pins, no die module, the journal under tmp_path."""
    from controller.config import default

    config = default()
    config.game.name = game
    if variant:
        config.game.variant = variant
    config.camera.source = str(source)
    config.gpio.factory = "mock"
    config.die_module.port = "off"
    config.data.folder = str(tmp_path / "data")
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


@pytest.fixture
def mock_pins():
    """gpiozero's own MockFactory with PWM pins, reset after the test."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    old = Device.pin_factory
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = old


@pytest.fixture(scope="module")
def browser():
    """A real headless Chromium, one per test module (pages are checked in it)."""
    need(os.path.exists(CHROMIUM), f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def broker(tmp_path):
    """A real Mosquitto on loopback, for the hall."""
    from mosquitto import MOSQUITTO, Mosquitto

    need(MOSQUITTO is not None, "mosquitto is missing (apt install mosquitto): the hall tests need a real broker")
    b = Mosquitto(tmp_path / "broker").start()
    yield b
    b.stop()
