"""Printing results whose exact counts can be larger than Python's default int-to-text limit."""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any


def exact_json(data: Any) -> str:
    """``json.dumps`` that writes every integer in full.

    Solution counts stay exact integers in the JSON contract; on a 150x150 board with 4500 mines they
    have more than the 4300 digits Python converts by default, so the limit is lifted for our own
    output only (parsing user input keeps it). Readers in Python need ``sys.set_int_max_str_digits(0)``.
    Each distinct huge count is converted to text once: every cell off the frontier shares one, and
    converting it per cell cost seconds.
    """
    digits: dict[int, str] = {}

    def mark(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: mark(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [mark(v) for v in value]
        if type(value) is int and value.bit_length() > _HUGE_BITS:
            if value not in digits:
                digits[value] = _int_text(value)
            return f"{_MARK}{digits[value]}{_MARK}"
        return value

    text = json.dumps(mark(data))
    quoted = json.dumps(_MARK)[1:-1]
    return re.sub(f'"{re.escape(quoted)}([0-9-]+){re.escape(quoted)}"', r"\1", text)


#: Integers above this many bits (about 1000 digits) are converted once each by :func:`exact_json`.
_HUGE_BITS = 3300
#: Brackets a huge integer's digits inside a JSON string until the quotes are stripped.
_MARK = "\x00"


def _int_text(value: int) -> str:
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(value)
    finally:
        sys.set_int_max_str_digits(limit)


def short_count(n: int, exact_below: int = 10**15) -> str:
    """A count for people: exact below ``exact_below``, else ``d.dddde+N`` computed without floats.

    An expert board has about 10^90 solutions and a 150x150 board 10^4900, beyond any float, so the
    exponent comes from the integer itself and only the five leading digits are converted.
    """
    if n < exact_below:
        return str(n)
    exponent = int(math.log10(n))
    # log10 of a huge int can be off by one at exact powers of ten: correct it with integer comparisons
    while 10**exponent > n:
        exponent -= 1
    while 10 ** (exponent + 1) <= n:
        exponent += 1
    lead = (n * 10**4 + 10**exponent // 2) // 10**exponent  # five digits, rounded
    if lead >= 10**5:  # 9.99995e+N rounds up to 1.0000e+(N+1)
        lead //= 10
        exponent += 1
    return f"{lead // 10**4}.{lead % 10**4:04d}e+{exponent}"
