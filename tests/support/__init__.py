"""Helpers shared by the tests (issue 34): no test module imports another; what several
share lives here, and their fixtures in the ``conftest.py`` files."""
