"""Display names (cardtable.display_names): no invisible character passes, so no name
renders blank or as another with something unseen added (issue 47, finding 10)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from cardtable.display_names import DEFAULT_IGNORABLE, DisplayNameError, clean_name, invisible

HANGUL_FILLERS = ("\u3164", "\u115f", "\u1160", "\uffa0")


@pytest.mark.parametrize("filler", HANGUL_FILLERS)
@pytest.mark.parametrize("shape", ["Ace{}", "{}", "{}{}", "A{}ce", "{}Ace", "Ace {}"])
def test_hangul_fillers_are_refused_anywhere_in_a_name(filler, shape):
    with pytest.raises(DisplayNameError, match=f"invisible.*U\\+{ord(filler):04X}"):
        clean_name(shape.format(filler, filler))


def test_every_default_ignorable_code_point_is_refused():
    for first, last in DEFAULT_IGNORABLE:
        for code in range(first, last + 1):
            with pytest.raises(DisplayNameError):
                clean_name(f"Ann{chr(code)}")


def test_names_that_show_every_character_still_pass():
    for name in ("Ace", "Zoé", "山田たろう", "한글", "Ann-Marie_2.0", "ᄀ"):
        assert clean_name(name) == unicodedata.normalize("NFC", name)


def _perl_default_ignorables() -> set[int] | None:
    """Unicode's Default_Ignorable_Code_Point as Perl's copy of the data lists it."""
    for path in sorted(Path("/usr/share/perl").glob("*/unicore/lib/DI/Y.pl")):
        text = path.read_text()
        bounds = [int(n) for n in re.findall(r"^(\d+)$", text.split("<<'END'")[1], re.M)]
        found: set[int] = set()
        for start, stop in zip(bounds[::2], bounds[1::2], strict=False):
            found.update(range(start, stop))
        return found
    return None


def test_the_table_is_unicode_s_property():
    """Checked against an independent copy of the Unicode data where the system has one."""
    reference = _perl_default_ignorables()
    if reference is None:
        pytest.skip("no Perl Unicode data on this system")
    ours = {code for first, last in DEFAULT_IGNORABLE for code in range(first, last + 1)}
    assert ours == reference
    assert not invisible("A") and invisible("\u200b")
