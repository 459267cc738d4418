"""shengji: Sheng Ji (升级), Tractor, Finding Friends and Da Bai Fen in Python.

The rules engine lives in :mod:`shengji.engine`; its central types are
re-exported here::

    >>> from shengji import Card, Hand, Rules, Trump, Trick
"""

from shengji.engine import *  # noqa: F403
from shengji.engine import __all__ as __all__
