"""The system's reasons for a failed file operation in the reader's language: Python
gives them in English whatever the locale (``No such file or directory``), so the common
ones are said here by their error number; others keep the system's words."""

from __future__ import annotations

import errno

from mathable.i18n import Text, lazy

_REASONS: dict[int, Text] = {
    errno.ENOENT: lazy("no such file or folder"),
    errno.EACCES: lazy("permission denied"),
    errno.EPERM: lazy("permission denied"),
    errno.EISDIR: lazy("it is a folder"),
    errno.ENOTDIR: lazy("a part of the path is not a folder"),
    errno.ENAMETOOLONG: lazy("the name is too long"),
    errno.EEXIST: lazy("the file exists already"),
    errno.ENOSPC: lazy("no space left on the disk"),
    errno.EROFS: lazy("the disk is read-only"),
    errno.ELOOP: lazy("too many symbolic links"),
    errno.EADDRINUSE: lazy("the address is in use already"),
    errno.EADDRNOTAVAIL: lazy("the address is not available here"),
}
"""What each common error number means, in words translated when shown."""


def reason(exc: OSError) -> str:
    """Why ``exc`` happened, in the reader's language where the error is a common one."""
    said = _REASONS.get(exc.errno) if exc.errno is not None else None
    if said is not None:
        return str(said)
    return exc.strerror or str(exc)
