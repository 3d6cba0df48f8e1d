"""Shared fixtures. Hardware is simulated in one place: gpiozero's MockFactory with PWM
pins (set here for every test) and the firmware simulator behind a pseudo-terminal."""
import os

import pytest

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")

IN_CI = os.environ.get("CI") == "true"


def need(tool_ok: bool, why: str):
    """Skip for a missing tool on a person's machine; under CI=true a missing tool fails."""
    if tool_ok:
        return
    if IN_CI:
        pytest.fail(f"CI=true and {why}")
    pytest.skip(why)


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
