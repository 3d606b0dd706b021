"""A disk problem in the system's words, for the window's messages.

>>> os_error_text(PermissionError(13, "Permission denied"))
'Permission denied'
"""

from __future__ import annotations

__all__ = ["os_error_text"]


def os_error_text(error: OSError) -> str:
    """The system's words for a disk problem (no error numbers or Python text)."""
    if error.strerror:
        return error.strerror
    return "the operating system refused"
