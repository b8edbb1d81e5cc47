"""Build-time mapping of the repository's top-level skin folders into the package.

Everything else about the build lives in ``pyproject.toml``; only this mapping needs code, because the shipped
skins stay where users see them (``calibration/``, ``templates/``) and yet must travel inside the wheel as
``autoplay.skins.calibration`` and ``autoplay.skins.templates``.
"""

from setuptools import find_packages, setup

SKIN_FOLDERS = {"autoplay.skins.calibration": "calibration", "autoplay.skins.templates": "templates"}

setup(
    packages=find_packages(include=["autoplay", "autoplay.*"]) + list(SKIN_FOLDERS),
    package_dir=SKIN_FOLDERS,
    package_data={
        "autoplay": ["py.typed"],
        "autoplay.skins.calibration": ["*.toml"],
        "autoplay.skins.templates": ["*/*.png"],
    },
)
