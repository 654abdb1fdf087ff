"""The networks and their groups: the families and their registry (families.py), the Network record and
permutations, the Cayley graph (groups.py), shortest words, letter symmetry groups and rotations."""
