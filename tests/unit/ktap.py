# SPDX-License-Identifier: GPL-2.0
"""What the Python unit tests here share: the tool under test loaded as a
module, and their KTAP.

A test script imports it after sys.dont_write_bytecode = True (no
__pycache__ left behind):

    sys.dont_write_bytecode = True
    import ktap  # noqa: E402

    tool = ktap.load_tool("name", PATH)
    ...
    if __name__ == "__main__":
        sys.exit(ktap.main(TESTS))
"""
import importlib.machinery
import importlib.util
import sys


def load_tool(name, path, search=None):
    """The file at path as module name (its main() does not run), without
    leaving a __pycache__ behind; search, a directory, first on sys.path
    for the tool's own imports."""
    sys.dont_write_bytecode = True
    if search:
        sys.path.insert(0, search)
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class Skip(Exception):
    """Raised by a test that cannot run here: "ok N NAME # SKIP why"."""


def eq(what, got, want):
    if got != want:
        raise AssertionError(f"{what}: got {got!r}, want {want!r}")


def main(tests):
    """Run each test function, in KTAP: the plan, "ok N NAME" (or a
    failure's diagnostics and "not ok N NAME"), the totals; 1 if any
    failed, else 0."""
    print("KTAP version 1")
    print(f"1..{len(tests)}")
    failed = 0
    for i, fn in enumerate(tests, 1):
        try:
            fn()
            print(f"ok {i} {fn.__name__}")
        except Skip as e:
            print(f"ok {i} {fn.__name__} # SKIP {e}")
        except Exception as e:  # noqa: BLE001 - a test's failure, reported
            failed += 1
            print(f"# {fn.__doc__.splitlines()[0] if fn.__doc__ else ''}")
            print(f"# {type(e).__name__}: {e}")
            print(f"not ok {i} {fn.__name__}")
    print(f"# totals: pass:{len(tests) - failed} fail:{failed}")
    return 1 if failed else 0
