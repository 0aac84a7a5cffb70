"""Secrets: seat and host tokens (stored only as hashes) and short room codes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: Room codes avoid letters and digits that look alike (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_token() -> str:
    """An unguessable token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, in constant time."""
    if token is None or stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str | None:
    """The room code in ``text`` (any case), or None if it cannot be one."""
    code = text.strip().upper()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        return None
    return code


def new_seed() -> int:
    return secrets.randbits(62)
