"""The eyes: find the board on a screenshot and read every cell against a skin's templates."""

from autoplay.vision.decode import DecodedFrame, check_consistency, decode_frame
from autoplay.vision.grid import Grid
from autoplay.vision.image_io import read_image
from autoplay.vision.locate import locate_grid
from autoplay.vision.skin import Skin, list_skins, load_skin

__all__ = [
    "DecodedFrame",
    "Grid",
    "Skin",
    "check_consistency",
    "decode_frame",
    "list_skins",
    "load_skin",
    "locate_grid",
    "read_image",
]
