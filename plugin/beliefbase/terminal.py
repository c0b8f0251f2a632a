"""Text for a terminal: control and escape characters made visible.

A note's title, a link target, a sidecar's statement or a file name can hold
ESC, BEL, a carriage return, a C1 control or a bidirectional override.  Printed
raw, they recolour, retitle or scramble the reader's terminal, or make a line
read differently from what it holds.  Every command prints through ``echo``
and the plugin's log lines go through ``printable``, which write each such
character as a ``\\uXXXX`` escape instead.  The escape is also valid inside a
JSON string, so JSON output stays JSON (with the same meaning).
"""

from __future__ import annotations

import re
from typing import Any

import click

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional
# embeddings, overrides and isolates ("Trojan Source").
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every control or bidi-override character as ``\\uXXXX``."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def echo(text: str = "", **kwargs: Any) -> None:
    """``click.echo`` of ``printable(text)``."""
    click.echo(printable(text), **kwargs)
