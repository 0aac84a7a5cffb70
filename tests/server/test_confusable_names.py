"""Account names that look alike (docs/players.md#accounts): a name whose TR39 skeleton
an account has is refused as ``name_taken``, a name mixing scripts as nobody writes them
as ``bad_name``, both naming the field and changing nothing; on SQLite and PostgreSQL.
Migration 0007 gives the existing accounts their skeletons."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic import command

from cardtable.display_names import name_key
from cardtable.server.name_skeletons import mixed_scripts, skeleton, skeleton_hash
from cardtable.server.storage.schema import MIGRATIONS, _alembic_config

from .test_accounts import SECRET, browser, register, whoami

CYRILLIC_A = "\u0410"
#: "Ace" in Cyrillic letters (U+0410 U+0441 U+0435): one script, Latin's look.
CYRILLIC_ACE = "\u0410\u0441\u0435"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Alice", CYRILLIC_A + "lice"),  # also mixed: refused either way
        ("Ace", CYRILLIC_ACE),
        ("Ian", "lan"),  # a capital I and a small L
        ("Bob", "B0B"),  # a zero for an O
        ("moon", "rnoon"),
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_refused(tmp_path, database, first, second):
    with browser(tmp_path, database) as http:
        register(http, first)
        http.cookies.clear()
        answer = http.post("/api/account/register", json={"name": second, "password": SECRET})
        assert answer.status_code in (400, 409), answer.text
        refused = answer.json()
        assert refused["field"] == "name"
        assert refused["error"] == ("bad_name" if mixed_scripts(second) else "name_taken")
        # The page says why: a look-alike of a taken name, or a mix of scripts.
        assert refused["reason_key"] == (
            "web.name.mixed_scripts" if mixed_scripts(second) else "web.name.looks_taken"
        )
        assert whoami(http) == {"signed_in": False} and "cardtable_session" not in http.cookies
        # Nothing was made: the first name signs in, the second does not exist.
        signin = {"name": second, "password": SECRET}
        assert http.post("/api/account/signin", json=signin).status_code == 401


def test_a_mixed_script_name_is_refused_naming_the_field_and_the_scripts(tmp_path):
    with browser(tmp_path) as http:
        answer = http.post(
            "/api/account/register", json={"name": "Iv" + CYRILLIC_A + "n", "password": SECRET}
        )
        assert answer.status_code == 400
        refused = answer.json()
        assert (refused["error"], refused["field"]) == ("bad_name", "name")
        assert refused["scripts"] == ["CYRILLIC", "LATIN"]
        assert "Cyrillic" in refused["reason"] and "Latin" in refused["reason"]


@pytest.mark.parametrize(
    "names",
    [
        ("Zoe", "Zoé"),  # an accent shows
        ("ian", "lan"),  # small letters that differ
        ("山田たろう", "Tanaka 山田"),  # Japanese mixes Han and kana, and Latin with them
        ("Ἀλέξανδρος", "Анна"),  # one script each
    ],
)
def test_names_that_differ_to_the_eye_are_both_registered(tmp_path, names):
    with browser(tmp_path) as http:
        for name in names:
            http.cookies.clear()
            assert register(http, name)["name"] == name


def test_the_skeleton_of_the_name_as_typed_and_case_folded():
    assert skeleton("Alice") == skeleton(CYRILLIC_A + "lice") == skeleton("alice")
    assert skeleton("ALICE") == skeleton("AlICE")  # as typed, a capital I is an l
    assert skeleton("\uff21lice") == skeleton("Alice")  # full-width A
    assert skeleton("Ian") != skeleton("ian")  # only a capital I looks like an l
    assert len(skeleton_hash("\ufdfa" * 24)) == 64  # NFKC makes this 432 letters


def test_migration_0007_gives_existing_accounts_their_skeletons(tmp_path):
    """Two accounts that already look alike both keep their names; the older one's
    skeleton is kept, so a third look-alike is refused."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        command.upgrade(_alembic_config(MIGRATIONS, connection), "0006")
        for name in ("Alice", CYRILLIC_A + "lice", "Ben"):
            connection.execute(
                sa.text(
                    "INSERT INTO users (name, name_key, password_hash, created_at)"
                    " VALUES (:name, :key, 'x', 0)"
                ),
                {"name": name, "key": name_key(name)},
            )
        command.upgrade(_alembic_config(MIGRATIONS, connection), "head")
        found = connection.execute(sa.text("SELECT name, name_skeleton FROM users ORDER BY id"))
        assert list(found) == [
            ("Alice", skeleton_hash("Alice")),
            (CYRILLIC_A + "lice", None),
            ("Ben", skeleton_hash("Ben")),
        ]
        with pytest.raises(sa.exc.IntegrityError):
            connection.execute(
                sa.text(
                    "INSERT INTO users (name, name_key, name_skeleton, password_hash, created_at)"
                    " VALUES ('alice', 'x', :look, 'x', 0)"
                ),
                {"look": skeleton_hash("alice")},
            )
    engine.dispose()
