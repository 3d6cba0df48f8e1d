"""What the page's tests share: a running service on a fresh data folder, and the same
served by a real waitress server on a free port (`served`)."""
import pytest

from support import Served, running_service


@pytest.fixture
def service(tmp_path):
    with running_service(tmp_path / "data") as s:
        yield s


@pytest.fixture
def served(tmp_path):
    with running_service(tmp_path / "data") as service:
        s = Served(service, heartbeat_s=0.2)
        yield s
        s.close()
