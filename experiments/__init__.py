"""One-off research runs: each answered one question of the frontier work and left a record under results/
(README.md lists each with the result it produced and the command that reproduces it).

Run one from the repository root: ``python -m experiments.NAME``."""
