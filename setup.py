"""The package's one compiled module, the online Elo kernel (metadata: pyproject.toml).

`reportgen/kinds/multidomain/stats/_elo_kernel.c` is built where a C compiler is found;
where none is, the install goes on without it (`optional`) and `elo_fast.py` uses its
numpy twin, which gives the same ratings bit for bit, only slower. Floating-point
contraction is off: every operation must round as numpy's do. Without trapping math the
compiler may turn the exponential's clamp into vector selects (without it, gcc 12 left the
AVX2 and SSE2 loops unvectorised: 10 ns an update instead of 3); no value changes.
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_GCC_LIKE = ["-O3", "-ffp-contract=off", "-fno-fast-math", "-fno-trapping-math"]


class BuildExt(build_ext):
    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for extension in self.extensions:
                extension.extra_compile_args = [*extension.extra_compile_args, *_GCC_LIKE]
        super().build_extensions()


setup(
    ext_modules=[
        Extension(
            "reportgen.kinds.multidomain.stats._elo_kernel",
            sources=["reportgen/kinds/multidomain/stats/_elo_kernel.c"],
            optional=True,
        )
    ],
    cmdclass={"build_ext": BuildExt},
)
