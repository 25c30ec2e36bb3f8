"""mathable: the Mathable family of crossnumber games in Python.

The rules core lives in :mod:`mathable.core`; this package re-exports its façade.
"""

from .core import *  # noqa: F403
from .core import __all__ as __all__

__version__ = "0.1.0"
