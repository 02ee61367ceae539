import pytest

import tally


@pytest.fixture
def con():
    return tally.connect(device="cpu")
