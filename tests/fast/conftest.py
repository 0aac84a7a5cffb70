import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")
