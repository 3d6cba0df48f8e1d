"""The link through a fault-injecting pseudo-terminal (1% of bytes corrupted, frames
dropped, garbage between frames) with unplugs and firmware resets: no roll lost,
duplicated or reordered, and every dropped link reported. bench/link.py runs the full
size (10,000 commands, 2,000 presses, 20 unplugs, 5 resets)."""
import pytest

from controller.demo_rig.module import Faults, soak


def check(r):
    assert r["presses_lost"] == 0
    assert r["rolls"] == r["presses_made"]  # every press counted, none twice
    assert r["rolls_shown"] == r["rolls"]  # every roll reached the module's face
    assert r["commands_repeated"] == 0 and r["commands_out_of_order"] == 0
    # every command acted on, except a tone in flight at a reboot (it may have played)
    # or one asked for while the link was down
    skipped = r["link"]["stale_tones"] + r["link"]["tones_missed"]
    assert r["commands_sent"] - skipped <= r["commands_acted_on"] <= r["commands_sent"]
    assert r["link"]["stale_tones"] <= r["resets"]
    assert r["downs_by_reason"].get("die module disconnected", 0) == r["unplugs"]
    assert r["downs_reported"] >= r["unplugs"] + r["resets"]
    assert r["link"]["damaged"] > 0 and r["link"]["resent"] > 0  # the faults really happened


@pytest.mark.parametrize("seed", [1, 2])
def test_seeded_faulty_run_loses_and_repeats_nothing(seed):
    check(soak(commands=400, presses=80, unplugs=3, resets=2, seed=seed,
               faults=Faults(corrupt=0.01, drop=0.02, garbage=0.02, seed=seed)))


@pytest.mark.slow
def test_full_size_run():
    check(soak(commands=10_000, presses=2_000, unplugs=20, resets=5, seed=2026))
