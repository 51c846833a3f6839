"""The libraries numba puts the compiled module's functions' code in (module.py): ``compilers`` gives numba's
compiler with a library of ours for each kind of function.

numba compiles each function into a library of its own, optimizes it as a whole and makes machine code of it at
once, whether anything calls that code or not. A function linked into its callers (linking.py) is only ever run
as the copy each caller links and optimizes again with its own code (and keeps on disk), so its own library is
``Unmade``: lowered and optimized function by function as numba does, then left as it is for the callers to link;
not optimized as a whole, not made machine code, not kept. Every other function (called by its symbol, or from
Python) is ``Made``: as numba's, but optimized as a whole once, not twice. numba runs a cheaper pass first to bring
the reference counts of its runtime together for a pass that prunes them, and the module's code counts none (it is
compiled without that runtime: module.py).
"""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def compilers() -> tuple[type, type]:
    """numba's compiler for a function called by its symbol or from Python (``Made``), and for a function only
    linked into its callers (``Unmade``): numba's own pipeline, the function's library ours (see the module's
    docstring)."""
    from numba.core.codegen import JITCodeLibrary
    from numba.core.compiler import CompilerBase, DefaultPassBuilder
    from numba.core.compiler_machinery import LoweringPass, register_pass
    from numba.core.typed_passes import NativeLowering

    class Made(JITCodeLibrary):
        """A library optimized once as a whole, then made machine code."""

        def _optimize_final_module(self) -> None:
            manager, builder = self._codegen._module_pass_manager()
            with self._recorded_timings.record("Module passes (full optimization)", builder):
                manager.run(self._final_module, builder)

    class Unmade(JITCodeLibrary):
        """A library only linked into others: optimized function by function, never made machine code."""

        def finalize(self) -> None:
            self._raise_if_finalized()
            seen = set()
            for library in self._linking_libraries:  # (what it links, linked into it, as numba's finalize does)
                if library not in seen:
                    seen.add(library)
                    self._reload_init.update(library._reload_init)
                    self._final_module.link_in(library._get_module_for_linking(), preserve=True)
            self._final_module.verify()
            self._finalized = True

        def get_pointer_to_function(self, name: str) -> int:
            self._ensure_finalized()
            return 0  # (as for a function without numba's wrapper for Python, which none of these has)

        @property
        def codegen(self) -> Any:
            return _Unplaced(self._codegen)

    def compiler(library: type) -> type:
        @register_pass(mutates_CFG=False, analysis_only=False)
        class Library(LoweringPass):
            _name = f"trickbook_{library.__name__.lower()}_library"

            def __init__(self) -> None:
                LoweringPass.__init__(self)

            def run_pass(self, state: Any) -> bool:  # (numba's lowering makes a library only where none is given)
                state.library = library(state.targetctx.codegen(), state.func_id.func_qualname)
                state.library.enable_object_caching()
                return True

        class Compiler(CompilerBase):
            def define_pipelines(self) -> list[Any]:
                pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
                at = next(i for i, (p, _) in enumerate(pm.passes) if p is NativeLowering)
                pm.passes.insert(at, (Library, f"the function's library: {library.__doc__}"))
                pm.finalize()
                return [pm]

        return Compiler

    return compiler(Made), compiler(Unmade)


class _Unplaced:
    """An ``Unmade`` library's code generator: numba's, but the address of the function's environment is not set
    (the library's code is not in the process's machine code; the environment is for Python objects, which the
    module's code never makes)."""

    def __init__(self, codegen: Any):
        self._codegen = codegen

    def set_env(self, name: str, env: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._codegen, name)
