"""Proof certificates (``docs/certificate-format.md``): the format, writing them, checking them.

* :mod:`~tesearch.checking.certificate.format`: constants, loading and validation, hashes, encoding headers;
* :mod:`~tesearch.checking.certificate.make`: :func:`make_certificate` / :func:`refute` / :func:`write_certificate`
  (checks a table and its refutations now; may use the prover's modules);
* :mod:`~tesearch.checking.certificate.check`: :func:`check_certificate`, which uses ONLY the checking kernel,
  the replay and the proof tools (``docs/trusted-base.md``).
"""

from tesearch.checking.certificate.check import (CertificateReport, ClaimVerdict, check_certificate, check_impossibility,
                                        run_replay)
from tesearch.checking.certificate.format import (CONFIRMATIONS_NEEDED, DEFAULT_TIMEOUT_S, CERTIFICATE_FORMAT, CERTIFICATE_FORMAT_VERSION,
                                         REPLAY_MODEL, EncodingHeader, Method, file_sha256, header_problems,
                                         load_certificate, optimality, read_encoding_header, repository_root,
                                         table_sha256, tool_version)
from tesearch.checking.certificate.make import (RefutationRequest, bounds_record, make_certificate, network_facts,
                                       read_refutation, refute, write_certificate)
from tesearch.running.terms import Verdict

__all__ = [
    "CONFIRMATIONS_NEEDED", "CertificateReport", "ClaimVerdict", "DEFAULT_TIMEOUT_S", "EncodingHeader", "CERTIFICATE_FORMAT",
    "CERTIFICATE_FORMAT_VERSION", "Method", "REPLAY_MODEL", "RefutationRequest", "Verdict", "bounds_record", "check_certificate",
    "check_impossibility", "file_sha256", "header_problems", "load_certificate", "make_certificate", "network_facts",
    "optimality", "read_encoding_header", "read_refutation", "refute", "repository_root", "run_replay",
    "table_sha256", "tool_version", "write_certificate",
]
