"""Passwords: Argon2id (argon2-cffi), hashed and checked in threads, never stored or
logged as they are.

The cost is chosen to take 50 to 250 ms on one core (docs/performance.md, "Sign-in
cost", with the command that measures it): 64 MiB of memory, 3 passes, one lane, 146
ms of CPU per check. A
sign-in for a name nobody has is checked against a hash of a random password with the
same cost, so that it takes as long as a wrong password for a name that exists.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import unicodedata

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

#: The cost (docs/performance.md): memory in KiB, passes, lanes.
MEMORY_KIB = 65_536
TIME_COST = 3
PARALLELISM = 1
#: Hashes computed at once on a node (each holds ``MEMORY_KIB`` while it runs).
CONCURRENT = 2

MIN_PASSWORD = 8
MAX_PASSWORD = 256


class PasswordRuleError(ValueError):
    """A password that is not allowed; the message says why."""


def clean_password(raw: str) -> str:
    """``raw`` in NFKC (so the same password typed on another keyboard matches), or raise
    :class:`PasswordRuleError`: a password has 8 to 256 characters."""
    password = unicodedata.normalize("NFKC", raw)
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise PasswordRuleError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


@dataclasses.dataclass(frozen=True)
class Cost:
    memory_kib: int = MEMORY_KIB
    time_cost: int = TIME_COST
    parallelism: int = PARALLELISM

    def hasher(self) -> PasswordHasher:
        return PasswordHasher(
            time_cost=self.time_cost,
            memory_cost=self.memory_kib,
            parallelism=self.parallelism,
            hash_len=32,
            salt_len=16,
            type=Type.ID,
        )


class Passwords:
    """Hash and check passwords off the event loop, ``CONCURRENT`` at a time."""

    def __init__(self, cost: Cost | None = None) -> None:
        self.hasher = (cost or Cost()).hasher()
        self._slots = asyncio.Semaphore(CONCURRENT)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (None: no such user, checked against a
        dummy hash all the same, and False)."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_urlsafe(24))
            await self._check(self._dummy, password)
            return False
        return await self._check(stored, password)

    async def _check(self, stored: str, password: str) -> bool:
        async with self._slots:
            try:
                return await asyncio.to_thread(self.hasher.verify, stored, password)
            except (VerificationError, InvalidHashError):
                return False

    def outdated(self, stored: str) -> bool:
        """Whether ``stored`` was hashed at another cost (it is hashed again at sign-in)."""
        try:
            return self.hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True
