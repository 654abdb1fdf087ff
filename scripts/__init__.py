"""The programs that make committed results and maintain the repository (README.md).

Run one from the repository root: ``python -m scripts.NAME``."""
