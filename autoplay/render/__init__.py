"""Pictures of boards for people: annotated screenshots, drawn boards and terminal grids.

Plain functions over BGR numpy arrays (OpenCV drawing), so the live player,
replay and ``analyze`` all show a position the same way.
"""

from autoplay.render.board_image import UniformGrid, render_board
from autoplay.render.files import save_png
from autoplay.render.overlay import add_caption, annotate_frame

__all__ = ["UniformGrid", "add_caption", "annotate_frame", "render_board", "save_png"]
