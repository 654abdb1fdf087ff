"""The checking side: the independent kernel, the whole-network replay, proof checking, certificates,
and the published tables of the seeds with their regression.  kernel/, replay/, proof/ and certificate/check.py
import nothing of the prover (docs/trusted-base.md)."""
