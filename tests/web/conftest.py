"""What the page's tests share: a running service on a fresh data folder."""
import pytest

from support import running_service


@pytest.fixture
def service(tmp_path):
    with running_service(tmp_path / "data") as s:
        yield s
