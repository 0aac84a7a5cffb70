import os

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

#: The 10,000-game cross-checks of the batch engines take about ten minutes of CPU (half
#: the suite's budget on two cores), and those of the compiled ``hard`` bots about 2.4
#: hours more (1.6 for Skyjo's, 0.8 for Skip-Bo's: the Python bots they compare with set
#: the pace): they run with ``make crosscheck`` (or this variable set), and every run of
#: the suite plays a sample of each rule set instead.
FULL_CROSSCHECK = os.environ.get("CARDTABLE_CROSSCHECK") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if FULL_CROSSCHECK:
        return
    skip = pytest.mark.skip(reason="a long check: make crosscheck runs it")
    for item in items:
        if item.get_closest_marker("crosscheck"):
            item.add_marker(skip)
