"""The skins shipped with autoplay, as package data.

The repository keeps them at its top level (``calibration/`` and ``templates/``,
where a user looks for them and ``autoplay calibrate`` writes new ones); the build maps those two folders into this
package as ``autoplay.skins.calibration`` and ``autoplay.skins.templates`` (see ``setup.py``), so a wheel carries
them and ``importlib.resources`` finds them the same way in an installed package and in a checkout.
"""
