"""The lichess token: from the environment (LICHESS_TOKEN) or a file only its owner may read
(mode 600).  It is a password: it is never printed, logged or archived; no message names it."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping

ENV = "LICHESS_TOKEN"
CREATE = "https://lichess.org/account/oauth/token/create?scopes[]={scope}&description=eboard"


class TokenError(Exception):
    """No token that can be used: why, in words (the token itself never)."""


def load_token(path: str | None, env: Mapping[str, str] = os.environ, scope: str = "board:play") -> str:
    """The token from path (a file of mode 600), else from LICHESS_TOKEN; TokenError (scope:
    the one it needs, named where a token is made)."""
    if path is not None:
        try:
            st = os.stat(path)
        except OSError as e:
            raise TokenError(f"--token-file {path}: {e.strerror}") from None
        if not stat.S_ISREG(st.st_mode):
            raise TokenError(f"--token-file {path}: not a file")
        if st.st_mode & 0o077:
            raise TokenError(f"--token-file {path}: others may read it (mode {stat.S_IMODE(st.st_mode):o}): "
                             f"the token is a password; chmod 600 {path} first")
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read().strip()
        except (OSError, UnicodeDecodeError) as e:
            raise TokenError(f"--token-file {path}: cannot be read ({type(e).__name__})") from None
        where = f"--token-file {path}"
    else:
        text = env.get(ENV, "").strip()
        where = ENV
        if not text:
            raise TokenError(f"no lichess token: set {ENV}, or give --token-file FILE (mode 600); a token with the "
                             f"{scope} scope is made at {CREATE.format(scope=scope)}")
    if not text or any(c.isspace() or not c.isprintable() for c in text):
        raise TokenError(f"{where}: not a token (one word, no spaces)")
    return text
