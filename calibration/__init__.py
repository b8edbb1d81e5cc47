"""Shipped skin data (not code): a package only so that importlib.resources finds this folder, installed or not.

The build maps it to ``autoplay.skins.calibration``; see autoplay/skins/__init__.py and setup.py.
"""
