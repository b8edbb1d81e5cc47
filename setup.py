"""Build-time code: the shipped skins mapped into the package, and the solver compiled to C where a compiler exists.

Everything else about the build lives in ``pyproject.toml``.  The shipped skins stay where users see them
(``calibration/``, ``templates/``) and yet must travel inside the wheel as ``autoplay.skins.calibration`` and
``autoplay.skins.templates``.  The modules in ``autoplay.compiled.COMPILED_SOURCES`` are compiled with mypyc when
the build has a C compiler (the extensions are optional: without a compiler, or with ``AUTOPLAY_PURE_PYTHON=1``,
the same package installs as pure Python and decides exactly alike, only slower); the build records a hash of each
compiled source so that an edited source is never shadowed by its old compiled copy (see ``autoplay/compiled.py``).
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SKIN_FOLDERS = {"autoplay.skins.calibration": "calibration", "autoplay.skins.templates": "templates"}
_compiled = runpy.run_path(
    str(HERE / "autoplay" / "compiled.py")
)  # not imported: autoplay's dependencies may be absent
SOURCES: tuple[str, ...] = _compiled["COMPILED_SOURCES"]
C_SOURCES: tuple[str, ...] = _compiled["C_SOURCES"]
RECORD_NAME: str = _compiled["RECORD_NAME"]


#: The setup.py commands that build extensions. pip runs setup.py three times per build (the build's requirements,
#: the metadata, the build itself); mypyc type-checks the solver each time it is asked for the extensions (~11 s), and
#: only a building command needs them.
BUILDING_COMMANDS = frozenset({"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install", "bdist"})


def compiled_extensions() -> list[Extension]:
    """mypyc's extensions for the solver and the C ones, or none (pure Python) when asked or when mypyc cannot type-check the solver."""
    if os.environ.get(_compiled["PURE_ENV"]) or not BUILDING_COMMANDS & set(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("autoplay: mypyc is not available; installing the pure-Python solver", file=sys.stderr)
        return []
    try:
        # numpy may be absent from an isolated build environment: its types are then Any, which compiles the same
        extensions = mypycify(
            ["--config-file=", "--ignore-missing-imports", *SOURCES],
            opt_level="3",
            group_name="autoplay",
            multi_file=True,  # a C file per module, compiled side by side (build_extension)
        )
    except (Exception, SystemExit) as exc:  # a type error mypyc refuses: the source still runs
        print(f"autoplay: mypyc could not compile the solver ({exc}); installing it as pure Python", file=sys.stderr)
        return []
    # the parts written in C (count's sweep), used only beside the mypyc modules (autoplay/solver/native.py)
    extensions += [
        Extension(_compiled["module_name"](source), [source], extra_compile_args=["-O2"]) for source in C_SOURCES
    ]
    for extension in extensions:
        extension.optional = True  # no C compiler: skip it, keep the pure-Python module
    return extensions


class BuildWithRecord(build_ext):
    """build_ext that writes, beside the package, the hash of every source whose compiled copy it built.

    Only a complete build is recorded: with any extension skipped (no compiler), the record is removed, so a
    compiled file left over from an earlier build can never pass for the current source.
    """

    def run(self) -> None:
        self.built: set[str] = set()
        super().run()
        package = HERE / "autoplay" if self.inplace else Path(self.build_lib) / "autoplay"
        record_path = package / RECORD_NAME
        every = SOURCES + C_SOURCES
        if not SOURCES or any(_compiled["module_name"](source) not in self.built for source in every):
            record_path.unlink(missing_ok=True)
            return
        record = {source: _compiled["source_digest"](HERE / source) for source in every}
        package.mkdir(parents=True, exist_ok=True)
        record_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")

    def build_extension(self, ext: Extension) -> None:
        """Build one extension, its C files compiled side by side: the solver's group is one C file per module,
        and on two cores its -O3 build takes 25 s instead of 52 s as one file (no slower to run, within 2%)."""
        one_by_one = self.compiler.compile

        def compile_side_by_side(sources: list[str], *args: object, **kwargs: object) -> list[str]:
            if len(sources) < 2:
                return one_by_one(sources, *args, **kwargs)
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:  # each compile is a gcc process
                parts = list(pool.map(lambda source: one_by_one([source], *args, **kwargs), sources))
            return [obj for part in parts for obj in part]

        self.compiler.compile = compile_side_by_side
        try:
            super().build_extension(ext)  # raises when it fails (optional extensions are skipped around this call)
        finally:
            self.compiler.compile = one_by_one
        self.built.add(ext.name)


setup(
    packages=find_packages(include=["autoplay", "autoplay.*"]) + list(SKIN_FOLDERS),
    package_dir=SKIN_FOLDERS,
    package_data={
        "autoplay": ["py.typed", "solver/_endgame.pyi", "solver/_sweep.pyi"],
        "autoplay.skins.calibration": ["*.toml"],
        "autoplay.skins.templates": ["*/*.png"],
    },
    ext_modules=compiled_extensions(),
    cmdclass={"build_ext": BuildWithRecord},
)
