"""The programs that measure speed and scale and print tables (README.md).

Run one from the repository root: ``python -m benchmarks.NAME``."""
