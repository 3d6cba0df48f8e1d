"""Shared fixtures. Hardware is simulated in one place: gpiozero's MockFactory with PWM
pins (set here for every test) and the firmware simulator behind a pseudo-terminal."""
import os
from pathlib import Path

import pytest

from support import IN_CI, need

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")

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
