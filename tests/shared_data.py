"""Where the real test material from outside the project lives: shared/data beside the
repository (as on the developers' machines and in CI), or $REFEREE_SHARED_DATA."""
import os
from pathlib import Path

SHARED_DATA = Path(os.environ.get("REFEREE_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
