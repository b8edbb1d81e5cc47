"""Command-line interface: one module per sub-command, registered in :mod:`autoplay.cli.main`."""
