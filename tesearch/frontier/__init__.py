"""New tables beyond the seed papers (issue 7): constructions, each verified."""
