"""What ``autoplay replay PATH`` means: one screenshot, a folder of them, or a live-play recording."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autoplay.errors import UsageError
from autoplay.replay.recording import RecordedDecision, Recording, is_recording, read_recording

#: Files in a folder that are taken as screenshots (other files are ignored, not errors).
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".webp"})
#: Where annotated frames go when PATH is a single file and no --out is given.
SINGLE_FILE_OUT = Path("replay-out")


@dataclass(frozen=True)
class FrameSource:
    """One frame to replay; ``recorded`` is what the live player decided on it, if known."""

    path: Path
    name: str
    recorded: RecordedDecision | None = None


@dataclass(frozen=True)
class ReplayInput:
    frames: list[FrameSource]
    recording: Recording | None
    #: Where annotated pictures go without --out; None for a recording, whose pictures are a page
    #: (``autoplay report``) rather than a full-size PNG per decision written into the recording.
    default_out: Path | None


def collect_frames(path: str | Path) -> ReplayInput:
    """Frames in replay order; raises :class:`UsageError` when there is nothing to replay.

    A recording replays its decisions in log order (a frame without a decision
    was never acted on, so there is nothing to compare); a plain folder replays
    its images in name order, which is capture order for numbered files.
    """
    p = Path(path)
    if not p.exists():
        raise UsageError(f"{p}: no such file or folder")
    if p.is_file():
        return ReplayInput([FrameSource(p, p.stem)], None, SINGLE_FILE_OUT)
    if is_recording(p):
        recording = read_recording(p)
        if not recording.decisions:
            raise UsageError(f"{p}: the recording holds no decisions")
        names = _unique_names([d.frame for d in recording.decisions])
        frames = [FrameSource(d.frame, name, d) for d, name in zip(recording.decisions, names)]
        return ReplayInput(frames, recording, None)
    images = sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in IMAGE_SUFFIXES)
    if not images:
        raise UsageError(f"{p}: no screenshots (.png, .jpg, .bmp) in this folder")
    return ReplayInput([FrameSource(f, frame_name(f)) for f in images], None, p / "annotated")


def frame_name(path: Path) -> str:
    """What a frame is called in output: its file name without ``.png`` (or ``.delta.png``: how a frame is
    stored is no business of the person reading about it)."""
    from autoplay.vision.frame_delta import DELTA_SUFFIX  # here: this module stays light for the CLI's --help

    return path.name[: -len(DELTA_SUFFIX)] if path.name.endswith(DELTA_SUFFIX) else path.stem


def _unique_names(paths: list[Path]) -> list[str]:
    """Frame names, suffixed on repeats so two decisions on one frame do not overwrite each other's picture."""
    seen: dict[str, int] = {}
    names = []
    for path in paths:
        name = frame_name(path)
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name}-{seen[name]}")
    return names
