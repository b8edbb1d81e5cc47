"""Lets ``python -m autoplay`` behave exactly like the ``autoplay`` command."""

import sys

from autoplay.cli.main import main

sys.exit(main())
