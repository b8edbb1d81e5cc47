"""A small TOML emitter for skin files: tomllib reads TOML but nothing in the standard library writes it.

Only what skins use: top-level scalars, then one level of ``[tables]`` holding
strings, booleans, integers, floats and flat lists of those.
"""

from __future__ import annotations

import math
import re

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")

Scalar = str | bool | int | float


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _string(key)


def _string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _value(value: Scalar | list) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("TOML skin files hold finite numbers only")
        return repr(round(value, 6))
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def dumps(data: dict, header: str = "") -> str:
    """TOML text for ``data``: scalar entries first, then each dict entry as a ``[table]``."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    for key, value in data.items():
        if not isinstance(value, dict):
            lines.append(f"{_key(key)} = {_value(value)}")
    for name, table in tables.items():
        lines.append("")
        lines.append(f"[{_key(name)}]")
        for key, value in table.items():
            if isinstance(value, dict):
                raise TypeError("skin files use one level of tables only")
            lines.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(lines) + "\n"
