"""Write results/manifest.toml: every committed result file and the command that makes it.

The manifest is derived from what the files say about themselves and from the run records:

- a table's own metadata (``search.run``, ``search.method``, ``construction``) says which
  command made it; search rows take their command from results/suite.json (the base suite)
  or results/frontier/runs.json (frontier searches), ring lifts from
  results/frontier/lifts.json, constructions are ``tesearch construct``;
- a certificate records its own ``tesearch certify`` command (``created.command``); the
  DRAT proofs next to the encodings are written by that same certify run;
- the ring-n:cyclic encodings are written by the suite's ``--keep-encodings`` searches, the
  lift-core encoding by experiments/lift_core.py;
- the few tables whose command the metadata does not give (the CP-SAT ones) take it from the
  commit that added them: see OVERRIDES below, each with the commit it comes from.

Old entry points are translated to the current CLI (``python -m tesearch.frontier.product``
-> ``tesearch lift`` with ``--timeout`` -> ``--solver-timeout``; ``python -m
tesearch.frontier.star`` -> ``tesearch stratify``; ``python -m tesearch.solvers.cpsat`` ->
``tesearch repack``; ``python -m tesearch.frontier.hypercube`` and
scripts/frontier_constructions.py -> ``tesearch construct``), a script or benchmark run by its path
(``python scripts/NAME.py``, as the run records of before issue 39 say) to the module it is now
(``python -m scripts.NAME``; the one-off research runs moved to experiments/ in issue 48 are
``python -m experiments.NAME``, and ``scripts/lane_core.py``, a shim for ``tesearch narrow --core-model
lanes``, is that command: see :func:`lane_core_command`), and the option spellings removed at 0.1.0 to the current ones (``--backend``
and ``--cpsat-model`` -> ``--solver``, ``--round`` and ``--attempt-timeout`` -> ``--solver-timeout``,
``--output`` -> ``--out``, ``repack --rotation-core`` -> ``narrow``).

This is the documented way to add entries: commit the new file, add its rule here if no
existing rule covers it (an unknown file stops this script), and rerun

    .venv/bin/python -m scripts.make_manifest

which rewrites results/manifest.toml, sha256 fields included (so rerun it after a result file
is deliberately regenerated). tests/test_manifest.py fails while a committed result file has
no entry.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shlex
import subprocess
from pathlib import Path

from tesearch.running.files import safe_name

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "results" / "manifest.toml"

#: the directories whose committed files the manifest covers (.gitkeep files excepted)
COVERED = ("results", "proofs", "encodings")

#: tables whose command is not in any run record: the command from the commit that added them
OVERRIDES: dict[str, tuple[str, str]] = {
    "results/frontier/star-9.json.gz": (
        "tesearch repack star-9 --rotation-core --round 200 --timeout 1500 --out results/frontier/star-9.json.gz",
        "best known, gap 113: the rotation search's greedy-core table (core 551 columns, exact width 438); the "
        "CP-SAT narrowing rounds were unknown (round 1: 268 s, no narrower core), so the time limit wrote the "
        "greedy-core table (2026-11-25, 25 min wall, 12.3 GB peak). Written to /tmp and gzipped by hand."),
    "results/pancake-5.json": (
        "tesearch search pancake-5 --backend cpsat --cpsat-model intervals --timeout 600 "
        "--out results/pancake-5.json",
        "CP-SAT's interval model (tesearch/solvers/intervals.py), sat at T = 107 = the counting bound in 8.7 s "
        "of solving (12.0 s in all, 2026-11-25, machine loaded): optimal. It replaced the T = 109 table of the "
        "placement model (266 s, commit 0041c3b), which had replaced the suite's Z3 table (T = 118, the "
        "suite.json record). CP-SAT within a time limit: not deterministic in time."),
    "results/bubblesort-5.json": (
        "tesearch search bubblesort-5 --strategy ejection --seed 0 --timeout 180 --out results/bubblesort-5.json",
        "the ejection search from the first fit over all shortest words with the excess penalty (10, on the "
        "word-choice LP's dual letter weights 0,1,1,0; tabu tenure 3, cells weighed by length, seed 0): T = 154 = "
        "the per-letter bound after 139362 placements (8.4 s, 2026-12-06): optimal, the search stops there. The "
        "same on any machine for this seed. It replaced the T = 158 table of the same search without the penalty "
        "(`--excess-penalty 0`: 158 after 59861 placements, then 157 at best in 10 million placements), which had "
        "replaced the T = 165 table of CP-SAT's interval model (`tesearch repack bubblesort-5 --start "
        "results/bubblesort-5.json --solver cpsat-intervals --seed 1 --timeout 540`, 2026-11-25)."),
    "results/frontier/pancake-6.json": (
        "tesearch search pancake-6 --strategy ejection --weighting square --excess-penalty 0 --start START --seed 5 "
        "--timeout 2700 --out results/frontier/pancake-6.json",
        "the ejection search (issue 47) in two runs, each from the table the one before wrote (START): from the T = "
        "710 table this file held (CP-SAT's interval model, 2026-11-25) by `tesearch search pancake-6 --strategy "
        "ejection --start START --timeout 1500` (cells weighed by length, tabu tenure 10, seed 0; 689 after 50 s, "
        "687 after 440 s, 686 after 1450 s), then square weighting, tenure 3, seed 5: T = 679 after 456112 placements "
        "(102.1 s; the run went on to 16.5 million placements in 2700 s without a narrower table), 2026-12-06 at a "
        "load of 7 to 90. Each table verified and replayed before the next run started from it. A seed, start and "
        "placement count give the same tables on any machine."),
    "results/frontier/bubblesort-6.json": (
        "tesearch search bubblesort-6 --strategy ejection --start START --seed 4 --excess-penalty 50 --timeout 1500 "
        "--out results/frontier/bubblesort-6.json",
        "the ejection search (issue 47) in four runs, each from the table the one before wrote (START): from the T = "
        "1297 table this file held (the large-neighbourhood search, 2026-12-05/06) by `tesearch search bubblesort-6 "
        "--strategy ejection --excess-penalty 0 --start START --timeout 1500` (before the excess penalty existed: cells "
        "weighed by length, tabu tenure 10, seed 0; 1216 after 45 s, 1210 after 119 s, 1205 after 876 s), then "
        "tenure 3, seed 11, no penalty: 1204 after 61 placements (2400 s in all); then from 1204 with the excess penalty "
        "30 (the word-choice LP's dual letter weights), seed 1: T = 1165 after 174158 placements (30.5 s; the run went "
        "on to 1005622 placements in 700 s without a narrower table); then from 1165 with penalty 50, seed 4: T = 1162 "
        "after 255351 placements (57.3 s; 9954318 placements in 1500 s in all), 2026-12-06 at a load of about 3. "
        "Penalty 10 seed 0 from the 1204 table: 1168; penalty 30 seed 2 from 1165: 1163; penalty 100 seed 3 from 1165: "
        "none narrower in 260 s. Each table verified and replayed before the next run started from it."),
    "results/frontier/star-7.json": (
        "tesearch stratify star-7 --timeout 800 --out results/frontier/star-7.json",
        "was `python -m tesearch.frontier.star star-7 --timeout 800` (scripts/frontier.py STRATIFIED); 184 s."),
    "results/frontier/star-7-odd.json": (
        "tesearch stratify star-7 --exchange odd-distance --attempt-timeout 60 --timeout 800 "
        "--out results/frontier/star-7-odd.json",
        "was `python -m tesearch.frontier.star ...` (scripts/frontier.py STRATIFIED); 148 s."),
    "proofs/tables/ring-6-cyclic.json": (
        "tesearch search ring-6:cyclic --out proofs/tables/ring-6-cyclic.json",
        "an early copy of results/ring-6-cyclic.json (commit eaeeb13): the same placements (greedy first-fit at "
        "the per-letter bound 6), only search.seconds differs. No certificate names it any more; "
        "proofs/ring-6-cyclic.json certifies results/ring-6-cyclic.json. A candidate for deletion."),
    "proofs/tables/ring-8-cyclic.json": (
        "tesearch search ring-8:cyclic --out proofs/tables/ring-8-cyclic.json",
        "an early copy of results/ring-8-cyclic.json (commit c6fcb2a): the same placements (greedy first-fit at "
        "the per-letter bound 10), only search.seconds differs. No certificate names it any more. "
        "A candidate for deletion."),
    "proofs/tables/ring-6-seed003.txt": (
        "",
        "hand-written input, not a run output: seed 003 §3.1's ring-6 (D_6) total-exchange layout typed with its "
        "word boundaries (commit eaeeb13 as proofs/tables/ring-6.txt, renamed in c6fcb2a). No command makes it; "
        "proofs/ring-6-seed003.json certifies it. Its printed source is also transcribed, without boundaries, "
        "in tesearch/checking/published/data/ring6-dihedral-total.txt."),
}

#: what a spot check of an entry's command found (scripts/reproduce.py NAME --into DIR), added to its note
SPOT_CHECKS: dict[str, str] = {
    "results/torus-4x8.json": (
        "Spot check 2026-11-23 (commit 1dff524, machine loaded): the recorded command did NOT reproduce the table: "
        "greedy T = 33, then Z3 unknown at T = 32 until the 300 s limit (exit 4; the suite run found T = 32 in "
        "6.2 s). Either a slowdown since the restructure or Z3's luck under load: worth a look."),
    "results/frontier/torus-12x12x12.json": (
        "Spot check 2026-11-23: `tesearch construct` gives a valid table of the same T = 2592 but other cells and "
        "word boundaries than the committed one (made by the former scripts/frontier_constructions.py, "
        "torus3d_even(12)); torus-10x10x10 is reproduced exactly."),
}

#: run records, reports and other non-table files: (command(s), depends_on, note)
FIXED: dict[str, tuple[list[str], list[str], str]] = {
    "results/fuzz.md": (["python -m benchmarks.fuzz --per-command 720 --seed 2032 --jobs 2 --report results/fuzz.md"], [],
                        "hostile inputs per subcommand and how many ended wrong; the committed run (10210 inputs, 0 "
                        "wrong) was made on commit 862b1d7, the code of the combined executor (session note of "
                        "2026-11-26, fourth session)"),
    "results/frontier-bench-star-8.md": (
        ["python -m scripts.frontier --strategies --only star-8 --out results/frontier-bench-star-8.md"], [],
        "star-8 total and odd-distance: the earlier rotation schedule beside the escalating one, Z3 and CP-SAT"),
    "results/frontier-bench-star-7.md": (
        ["python -m scripts.frontier --strategies --only star-7 --out results/frontier-bench-star-7.md"], [],
        "star-7 total and odd-distance: stratification and the patient rotation schedule beside the split strategy"),
    "results/lanes-bench.md": (["python -m benchmarks.lanes --max-n 64 --kernel-max-nodes 60000 --report results/lanes-bench.md",
                                "python -m benchmarks.lanes --restate results/lanes-bench.md"], [],
                               "mirror-lane tables for every m x n x n (4 | m < n, n even): T, tesearch's and the "
                               "kernel's bounds, the shells chained, seconds; all 240 shapes up to n = 64, from two runs "
                               "(the first stopped at n = 48, the second went on with --min-n 48 --min-m 32), "
                               "stated at the top; --restate then marked the 79 bounds the runs printed below the "
                               "kernel's (the prover's estimates of the time) superseded (issue 47)"),
    "results/symmetry-cores.md": (
        ["python -m experiments.symmetry_cores --max-n 9 --report results/symmetry-cores.md"], [],
        "the core of every regular letter group (every group of order n-1) on star-5..9, total and odd-distance"),
    "results/symmetry-search.md": (
        ["python -m experiments.symmetry_cores --search --max-n 7 --timeout 150 --report results/symmetry-search.md"], [],
        "what the rotation search reaches with each regular letter group (--symmetry) on star-5..7, one run each"),
    "results/star-structure.md": (["python -m experiments.star_structure --report results/star-structure.md"], [],
                                  "the rotation core of star-4, 6, 8 (n - 1 prime): the powers of the p-cycle, their "
                                  "progression words, and how the committed optimal tables stagger them"),
    "results/view.md": (["python -m benchmarks.view --report results/view.md"], [],
                        "tesearch view pages (star-5, star-7, star-8, hypercube-16): build seconds, bytes, gzipped bytes, "
                        "time to interactive and redraw time measured in headless Chromium (quoted in docs/view.md)"),
    "results/front-door.md": (
        ["python -m benchmarks.front_door --before DIR --timeout 60 --report results/front-door.md"], [],
        "`search NETWORK` to an optimal or best table for every family at three sizes: before the front door (DIR: a "
        "checkout of 99aa099), after it with the route it took, and the command a user had to know before it"),
    "results/mpich-tests.md": (
        ["python -m benchmarks.mpich_tests --sources DIR --report results/mpich-tests.md"], [],
        "MPICH's own alltoall, error and threadcomm tests without and with the library preloaded (DIR: MPICH's test "
        "files fetched file by file from pmodels/mpich, outside the repository, with their SOURCES.txt of commits; "
        "the report lists them)"),
    "results/limits.md": (["python -m benchmarks.limits --report results/limits.md"], [],
                          "from --timeout to exit and peak memory per run (quoted in results/suite.md)"),
    "results/twisted/runs.json": (["python -m scripts.twisted_runs SPEC --timeout S [--command search|stratify]"], [],
                                  "one row per step (search, verify, replay, certify, check-proof) of every twisted run, "
                                  "in the order run; each row holds its own tesearch command"),
    "results/twisted/comparison.json": (["python -m scripts.twisted_report"], ["results/twisted/runs.json"],
                                        "regular against twisted: bounds, distances, T and their ratio"),
    "results/twisted/README.md": (["python -m scripts.twisted_report"], ["results/twisted/runs.json"],
                                  "generated from the tables, runs.json and the network facts"),
    "results/twisted/T-vs-nodes.png": (["python -m scripts.twisted_report"], ["results/twisted/runs.json"],
                                       "T against node count, regular and twisted wiring"),
    "results/twisted/attempts-torus-32x16-twisted.json": (
        ["tesearch search torus-32x16:twisted --timeout 240 --backend cpsat --word-cap 400 --json"], [],
        "the per-attempt log of one unknown 32x16 run (sampled words: it proves nothing)"),
    "results/compare.md": (["python -m scripts.compare_report --all-nodes-limit 1100000"], [],
                           "the tables against shortest-path FIFO, e-cube and seed 000 (writes compare.json and the "
                           "plots too)"),
    "results/compare.json": (["python -m scripts.compare_report --all-nodes-limit 1100000"], [],
                             "the records behind results/compare.md"),
    "results/compare.png": (["python -m scripts.compare_report --all-nodes-limit 1100000"], [],
                            "steps against network size for each schedule"),
    "results/compare-overhead.png": (["python -m scripts.compare_report --all-nodes-limit 1100000"], [],
                                     "steps over the bound and peak buffers"),
    "results/mpi.md": (["python -m benchmarks.mpi --repeat 3 --max-memory 10G --executor all --json results/mpi.json",
                        "tesearch run results/star-5.json --mpi --executor all",
                        "tesearch run results/star-5.json --mpi --executor all --bytes 64K",
                        "tesearch run results/torus-4x4x8.json --mpi --executor all",
                        "tesearch run results/torus-4x4x8.json --mpi --executor all --bytes 64K",
                        "tesearch run results/star-5.json --mpi --executor dataflow --dataflow 8:8,64:64"], [],
                       "quotes a benchmark run and the 120-rank star-5 and 128-rank torus-4x4x8 runs under every C "
                       "executor at 8 B and 64 KiB (hand-written around the run outputs)"),
    "results/mpi.json": (["python -m benchmarks.mpi --repeat 3 --max-memory 10G --executor all --json results/mpi.json"],
                         [], "the benchmark's records (every C executor: step, dataflow 1:1, combined)"),
    "results/ejection-bench.md": (["python -m benchmarks.ejection --networks bubblesort-5 pancake-5 --tenures 3 10 30 "
                                   "--weightings length square --penalties 0 10 --seeds 0 1 2 --steps 150000 "
                                   "--report results/ejection-bench.md"], [],
        "the ejection search's width after 150000 placements from the first fit, by excess penalty, weighting, tabu "
        "tenure and seed (widths depend on the seed and the step count only; seconds on the load)"),
    "results/conformance.md": (["python -m benchmarks.conformance --ranks 8,16,24 --report results/conformance.md"], [],
                               "mpi4py's collective tests with the library preloaded on 8, 16 and 24 ranks (issue 46)"),
    "results/conformance-check.md": (["python -m benchmarks.conformance --check torus-4x4x8,hypercube-7 "
                                      "--report results/conformance-check.md"], [],
                                     "tests/c/alltoall_check.c on the 128-rank tables' nodes with their libraries "
                                     "preloaded (the suite runs it on 8, 24 and 120 ranks)"),
    "results/contenders.md": (["python -m benchmarks.contenders --report results/contenders.md"], [],
                              "every contender of tesearch/schedules/contenders/ on the simulate study's nine networks: S, B, "
                              "the floors D, P and F, the largest bundle, the held-blocks peaks, build seconds and "
                              "the standing in the superstep model (docs/simulate.md, 'The superstep model')"),
    "results/executors.json": (["python -m benchmarks.executors --networks hypercube-7,torus-4x4x8",
                                "python -m benchmarks.executors --pipelined-only --pipelined-sizes '' --replace",
                                "python -m benchmarks.executors --pipelined-only --no-pipelined-grid "
                                "--pipelined-networks torus-8x8 --pipelined-sizes 64K --replace",
                                "python -m benchmarks.executors --pipelined-only --no-pipelined-grid "
                                "--pipelined-networks hypercube-7,star-5,torus-4x4x8:twisted,torus-4x4x8 "
                                "--pipelined-sizes 64K --run-timeout 2400 --replace",
                                "python -m benchmarks.executors --pipelined-only --no-pipelined-grid "
                                "--pipelined-networks torus-8x8 --pipelined-sizes 1M --run-timeout 2400 --replace",
                                "python -m benchmarks.executors --pipelined-only --no-pipelined-grid "
                                "--pipelined-networks hypercube-7,star-5,torus-4x4x8:twisted,torus-4x4x8 "
                                "--pipelined-sizes 1M --non-optimal-sizes none --run-timeout 2400 --replace",
                                "python -m benchmarks.executors --pipelined-only --no-pipelined-grid "
                                "--pipelined-networks torus-4x8x8:twisted,torus-4x8x8 --pipelined-models smpi "
                                "--pipelined-sizes 64K --non-optimal-sizes none --run-timeout 1800 --replace",
                                "python -m benchmarks.executors --one-link"], [],
                               "the executors benchmark's tesearch simulate reports: the dataflow executor's K x W "
                               "grid at 64 KiB (SMPI) on hypercube-7 and torus-4x4x8, bundles whole or as 8 KiB "
                               "and 64 KiB pieces under SMPI and CM02 on hypercube-3, hypercube-5 and torus-4x4, the "
                               "pipelined executor's P x W grid on torus-8x8 (SMPI, CM02, 64 KiB), its rule on the "
                               "five networks of the study at 64 KiB under both models (with the non-optimal tables) "
                               "and at 1 MiB, the 256-rank tori at 64 KiB under SMPI, and one link carrying torus-8x8's 1 MiB "
                               "stream in pieces (benchmarks/one_link.c) under both models"),
    "results/executors.md": (["python -m benchmarks.executors --report-only"], ["results/executors.json"],
                             "the executors benchmark's report: times over the link-time bound and blocks held"),
    "results/simulate.json": (["python -m benchmarks.simulate"], ["results/simulate-mpi.jsonl"],
                              "every tesearch simulate report (SimGrid SMPI and CM02) of the schedules, merged network "
                              "by network, with the MPI_Alltoall runs of results/simulate-mpi.jsonl merged in"),
    "results/simulate-mpi.jsonl": (["python -m benchmarks.mpi_contenders --out results/simulate-mpi.jsonl"], [],
                                   "every MPI_Alltoall run of the simulate study, one JSON line each (the runs of "
                                   "the study at 1d87e2a first, then benchmarks/mpi_contenders.py's, each given the "
                                   "wall clock it needs or stopped once it could not be the best)"),
    "results/simulate.md": (["python -m benchmarks.simulate --report-only"],
                            ["results/simulate.json", "docs/notes/simulate-findings.md"],
                            "generated from results/simulate.json and the findings in docs/notes/simulate-findings.md"),
    "results/simulate.png": (["python -m benchmarks.simulate --report-only"], ["results/simulate.json"],
                             "simulated time against block size, log-log, one panel per network (SMPI model)"),
    "results/suite.json": (
        ["python -m scripts.results_suite"],
        [],
        "every base-suite search (about 73 runs, roughly 20 CPU minutes on this machine; each run writes its "
        "table with --out under the keep-better rule). One run: `python -m scripts.results_suite --only NAME`."),
    "results/suite.md": (["python -m scripts.results_suite --report"],
                         ["results/suite.json", "results/fuzz.md", "results/limits.md"],
                         "generated from results/suite.json and the tables' metadata (results/README.md until issue 48)"),
    "results/README.md": (
        [""],
        [],
        "hand-written, not a run output: the findings (time on a network, the frontier, the papers' errata), each "
        "with the command that reproduces it; every figure comes from a result file this manifest lists"),
    "results/frontier/runs.json": (
        ["python -m scripts.frontier", "python -m scripts.frontier --symmetry-targets"],
        [],
        "every frontier search (hours: star-8 alone takes about 10 minutes); one: `--only NAME`; the letter-group "
        "runs (star-9 with Q8, up to 20 min): `--symmetry-targets`."),
    "results/frontier/lifts.json": (
        ["python -m scripts.frontier_lifts",
         "python -m scripts.frontier_lifts --only torus-8x16x16 --timeout 900",
         "python -m scripts.frontier_lifts --only torus-6x8x10 --backend cpsat --timeout 300",
         "python -m scripts.frontier_lifts --only torus-8x16x16 --ring 1 --timeout 3000",
         "python -m scripts.frontier_lifts --only torus-8x16x16 --ring 1 --backend cpsat --timeout 1800",
         "python -m scripts.frontier_lifts --only torus-8x16x16 --ring 1 --mode cyclic --backend cpsat --timeout 900"],
        [],
        "one record per lift run, keyed by network and options; the runs in the order they were made "
        "(scripts/frontier_lifts.py --timeout is seconds per solver call). The torus-8x16x16 runs take hours "
        "and end unknown."),
    "results/frontier/lift-cores.json": (
        ["python -m experiments.lift_core torus-8x16x16 --ring 0 --window 16 --cpsat-timeout 60 --z3-timeout 1800"],
        [],
        "also writes encodings/lift-torus-8x16x16-ring0-construction-core.smt2; about 200 s."),
    "encodings/lift-torus-8x16x16-ring0-construction-core.smt2": (
        ["python -m experiments.lift_core torus-8x16x16 --ring 0 --window 16 --cpsat-timeout 60 --z3-timeout 1800"],
        [],
        "written by the lift-core run that writes results/frontier/lift-cores.json"),
    "results/frontier/word-choice.json": (
        ["python -m scripts.word_choice_runs"],
        [],
        "one `tesearch bound` run per open frontier case (the word-choice bound, issue 40), with wall seconds and "
        "peak memory; also writes the proofs/word-choice-*.json certificates. star-10 takes about an hour."),
    "results/frontier/star-core-arrays.json": (
        [f"python -m experiments.star_core_array {p} --timeout 60 --record results/frontier/star-core-arrays.json"
         for p in (3, 5, 7, 11)],
        [],
        "core arrays of the prime-star construction by CP-SAT, one row per start pattern tried (p = 3, 5, 7: the "
        "first pattern gives one; p = 11: all 66 patterns INFEASIBLE, CP-SAT's word, no certificate); the file "
        "was removed before the four runs"),
    "results/frontier/star-core-arrays-extra.json": (
        ["python -m experiments.star_core_array 11 --extra-orbit --timeout 10 "
         "--record results/frontier/star-core-arrays-extra.json"],
        [],
        "p = 11 with one extra orbit of transpositions in a 35-column core: the 59th start pattern gave the array "
        "recorded in tesearch/constructions/star_prime.py (about 13 min wall on the loaded machine, 18:57 to 19:10, most of it building the 59 models)"),
    "results/frontier/star9-core.json": (
        ["python -m experiments.star9_balanced_core --timeout 1200 --record results/frontier/star9-core.json",
         "python -m experiments.star9_balanced_core --record results/frontier/star9-core.json --timeout 1200"],
        [],
        "star-9's rotation core at 438 columns with the balanced word choice fixed first (CP-SAT interval model); a "
        "campaign (issue 47): each run appends its row with a new seed (the number of rows before it), so the next "
        "run of the second command goes on where the record ends; results/frontier.md lists the runs"),
    "results/twisted/core-exact.json": (
        ["python -m experiments.twisted_core_exact --timeout 900 --workers 2 --record results/twisted/core-exact.json",
         "python -m experiments.twisted_core_exact --workers 1 --record results/twisted/core-exact.json --timeout 600"],
        [],
        "torus-12x12x24:twisted's rotation core in exactly 60 columns (T = 6036), the exact abelian CP-SAT model; a "
        "campaign (issue 47): each run appends its row with a new seed (the number of rows before it), so the next "
        "run of the second command goes on where the record ends; results/frontier.md lists the runs"),
    "results/frontier/star9-group-balance.json": (
        ["python -m experiments.star9_group_balance --record results/frontier/star9-group-balance.json"],
        [],
        "star-9 over C8, C4xC2, C2^3 and Q8: each group's core, its width at the bound 365202 and the star max "
        "flow's least most-used letter over the core's words (6:26 wall, 0.24 GB peak, 2026-12-06, load about 28)"),
    "results/frontier.md": (
        ["python -m scripts.frontier --report"],
        ["results/frontier/runs.json", "results/frontier/lifts.json", "results/frontier/lift-cores.json",
         "results/frontier/word-choice.json", "results/fulltable/bubblesort-5.state.json",
         "results/frontier/star9-core.json", "results/twisted/core-exact.json", "docs/notes/frontier.md"],
        "generated from the run records, the frontier tables' metadata and the notes in docs/notes/frontier.md"),
    "results/regress.md": (
        ["python -m scripts.regress_report"],
        ["results/errata-notes.md"],
        "generated from `tesearch regress --json` (tesearch.checking.published.regress.run_regress) and "
        "benchmarks/constructions.py; seconds and the run line differ on every run"),
    "results/errata.md": (
        ["python -m scripts.regress_report"],
        ["results/errata-notes.md"],
        "generated from `tesearch regress --json` and the analysis in results/errata-notes.md"),
    "results/errata-notes.md": (
        [""],
        [],
        "hand-written analysis, not a run output: the explanations that scripts/regress_report.py merges into "
        "results/errata.md, keyed by regress row name"),
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def committed_files() -> list[str]:
    """Files under COVERED that git tracks or that are new in the worktree (not ignored)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", *COVERED],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted(p for p in set(out.split()) if not p.endswith(".gitkeep") and p != "results/manifest.toml"
                  and (ROOT / p).is_file())


def translate(old: str) -> str:
    """An old entry point's command in the current CLI (see the module doc)."""
    words = shlex.split(old)
    if words[:3] == ["python", "-m", "tesearch.frontier.product"]:
        words = ["tesearch", "lift", *["--solver-timeout" if w == "--timeout" else w for w in words[3:]]]
    elif words[:3] == ["python", "-m", "tesearch.frontier.star"]:
        words = ["tesearch", "stratify", *words[3:]]
    elif words[:3] == ["python", "-m", "tesearch.solvers.cpsat"]:
        words = ["tesearch", "repack", *words[3:]]
    words = [w for w in words if w != "--keep-better"]  # keep-better is the CLI's rule now
    return shlex.join(words)


#: a script or a benchmark run by its path, as records written before they were packages say
RUN_BY_PATH = re.compile(r"^python (scripts|benchmarks)/([a-z_0-9]+)\.py\b")


#: tesearch options renamed before 0.1.0 (their shims are gone): former spelling -> current one
RENAMED_OPTIONS = {"--round": "--solver-timeout", "--attempt-timeout": "--solver-timeout", "--output": "--out"}


#: the one-off research runs that lived in scripts/ until issue 48 and are experiments/NAME.py now
MOVED_TO_EXPERIMENTS = frozenset({"lift_core", "lp_bound", "star9_balanced_core", "star_core_array", "star_structure",
                                  "symmetry_cores", "twisted_core_exact"})

#: the defaults of the former scripts/lane_core.py (whole run; seconds per part), which its records rely on
LANE_CORE_DEFAULT_TIMEOUT, LANE_CORE_DEFAULT_ATTEMPT = "1200.0", "40.0"


def lane_core_command(arguments: list[str]) -> list[str]:
    """The ``tesearch narrow`` command that ``python -m scripts.lane_core ARGS`` ran (the former shim, removed in
    issue 48): SPEC --out F [--timeout S] [--attempt S] [--min-width W] [--max-width W] [--joint] is
    ``tesearch narrow SPEC --core-model lanes|joint-lanes --out F --timeout S --solver-timeout S
    [--from-width W] [--max-width W]`` (--min-width 0, the former default, meant no lower width)."""
    spec, options, joint, i = None, {}, False, 0
    while i < len(arguments):
        word = arguments[i]
        if word == "--joint":
            joint, i = True, i + 1
        elif word.startswith("--"):
            options[word], i = arguments[i + 1], i + 2
        else:
            spec, i = word, i + 1
    unknown = set(options) - {"--out", "--timeout", "--attempt", "--min-width", "--max-width"}
    if spec is None or "--out" not in options or unknown:
        raise SystemExit(f"scripts/lane_core.py {shlex.join(arguments)}: not a command the former script took")
    words = ["tesearch", "narrow", spec, "--core-model", "joint-lanes" if joint else "lanes", "--out", options["--out"],
             "--timeout", options.get("--timeout", LANE_CORE_DEFAULT_TIMEOUT),
             "--solver-timeout", options.get("--attempt", LANE_CORE_DEFAULT_ATTEMPT)]
    if int(options.get("--min-width", "0")) > 0:
        words += ["--from-width", options["--min-width"]]
    if "--max-width" in options:
        words += ["--max-width", options["--max-width"]]
    return words


def current(command: str) -> str:
    """A recorded command as it runs now: ``python scripts/NAME.py ARGS`` is ``python -m scripts.NAME ARGS``
    (benchmarks alike; ``experiments.NAME`` for the runs moved there), ``scripts.lane_core`` is the
    ``tesearch narrow`` command it ran, and a ``tesearch`` command takes the current option spellings (module doc)."""
    command = RUN_BY_PATH.sub(lambda m: f"python -m {m[1]}.{m[2]}", command)
    words = shlex.split(command)
    if words[:3] == ["python", "-m", "scripts.lane_core"]:
        words = lane_core_command(words[3:])
    elif words[:2] == ["python", "-m"] and words[2].startswith("scripts.") \
            and words[2].removeprefix("scripts.") in MOVED_TO_EXPERIMENTS:
        return shlex.join(["python", "-m", "experiments." + words[2].removeprefix("scripts."), *words[3:]])
    if not words or words[0] != "tesearch":
        return command
    if words[1] == "repack" and "--rotation-core" in words:
        words = ["tesearch", "narrow", *[w for w in words[2:] if w != "--rotation-core"]]
    backend = model = None
    rest, i = [], 0
    while i < len(words):
        w = words[i]
        if w == "--backend":
            backend, i = words[i + 1], i + 2
        elif w == "--cpsat-model":
            model, i = words[i + 1], i + 2
        else:
            rest.append(RENAMED_OPTIONS.get(w, w))
            i += 1
    if backend is not None or model is not None:
        solver = "cpsat-intervals" if model == "intervals" else (backend or "cpsat")
        rest += ["--solver", solver]
    return shlex.join(rest)


def with_out(command: str, out: str) -> str:
    words = shlex.split(command)
    return command if "--out" in words or "--out-dir" in words else f"{command} --out {out}"


def twisted_command(rel: str) -> str:
    """The command results/twisted/runs.json records as having written a twisted-torus table."""
    runs = json.loads((ROOT / "results" / "twisted" / "runs.json").read_text())
    written = [r["command"] for r in runs if r.get("step") == "search"
               and (r.get("outcome") == f"written to {rel}" or r.get("outcome", "").startswith(f"written to {rel} ("))]
    if not written:
        raise SystemExit(f"{rel}: results/twisted/runs.json records no search that wrote it")
    return written[-1]


def table_entry(rel: str, data: dict, suite: dict, runs: dict, lifts: dict) -> tuple[list[str], list[str], str]:
    """(commands, depends_on, note) for one table file."""
    if rel in OVERRIDES:
        command, note = OVERRIDES[rel]
        return [command], [], note
    if rel.startswith("results/twisted/"):
        command = twisted_command(rel)
        shim = (" (recorded as the former scripts/lane_core.py, which ran this `tesearch narrow` command)"
                if "lane_core" in command else "")
        return [command], [], ("scripts/twisted_runs.py ran it and recorded it in results/twisted/runs.json" + shim
                               + ", with the verify, replay, certify and check-proof steps after it")
    construction = data.get("construction")
    network, exchange = data["network"], data["exchange"]
    if rel.startswith("results/frontier/"):
        if isinstance(construction, dict) and "ring lift" in str(construction.get("method")):
            backend = construction.get("backend")
            for key, record in lifts.items():
                if record["network"] == network and record.get("status") == "found" and record["T"] == data["T"] \
                        and ((" --backend " in key) == (backend is not None and backend != "z3")):
                    return [translate(record["command"])], [], f"ring lift ({construction.get('mode')} mode, " \
                        f"factor {construction.get('factor')}); run record lifts.json[{key!r}]"
            raise SystemExit(f"{rel}: no lift record gives T = {data['T']}")
        if construction is not None:
            note = "construction, no solver"
            if rel in SPOT_CHECKS:
                note += ". " + SPOT_CHECKS[rel]
            return [f"tesearch construct {network} --out {rel}"], [], note
        key = f"{network} {exchange}"
        if key in runs:
            note = "rotation search; run record runs.json"
            if network == "star-8" and exchange == "total":
                note += ("; the committed table is from the first run (search.seconds 417.5, commit 69a6dfb), "
                         "the runs.json row from the rerun")
            return [translate(runs[key]["command"])], [], note
        raise SystemExit(f"{rel}: no run record for {key}")
    key = f"{network} {exchange}"
    if key in suite:
        record = suite[key]
        if record["T"] != data["T"]:
            raise SystemExit(f"{rel}: suite T {record['T']} != table T {data['T']}: add an override")
        depends = []
        note = "base suite; run record suite.json"
        if rel in SPOT_CHECKS:
            note += ". " + SPOT_CHECKS[rel]
        return [with_out(translate(record["command"]), rel)], depends, note
    raise SystemExit(f"{rel}: no rule (add one to scripts/make_manifest.py)")


#: the whole-table SAT campaign's command per network (benchmarks/fulltable.py; --stop-at as the run used)
FULLTABLE_CAMPAIGNS = {"bubblesort-5": "python -m benchmarks.fulltable bubblesort-5 --stop-at 01:43"}
FULLTABLE_CALIBRATIONS = {  # the first two ran before the counting cut existed (--cut none since)
    "results/fulltable/calibration.md": "python -m benchmarks.fulltable --calibrate bubblesort-4 pancake-4 pancake-5 "
                                        "star-5 --per-width 120 --cut none --report results/fulltable/calibration.md",
    "results/fulltable/calibration-star-4.md": "python -m benchmarks.fulltable --calibrate star-4 --per-width 300 "
                                               "--cut none --report results/fulltable/calibration-star-4.md",
    "results/fulltable/calibration-cut.md": "python -m benchmarks.fulltable --calibrate bubblesort-4 pancake-4 "
                                            "pancake-5 star-5 --per-width 120 --deltas 1 0 -1 "
                                            "--report results/fulltable/calibration-cut.md",
}


#: the small-groups benchmark's command (benchmarks/smallgroups.py writes its report and the kept evidence)
SMALLGROUPS_COMMAND = "python -m benchmarks.smallgroups --report results/small-groups.md --keep-above-bound"


def smallgroups_entry(rel: str) -> dict | None:
    """The manifest entry of a file the small-groups benchmark writes (None: not one of them)."""
    name = Path(rel).name
    if rel == "results/small-groups.md":
        return {"name": "report:small-groups", "path": rel, "kind": "report", "command": SMALLGROUPS_COMMAND,
                "depends_on": [], "note": "every Cayley graph of S4's subgroups on involutions, settled exactly"}
    if rel.startswith("results/small-groups/"):
        data = json.loads((ROOT / rel).read_text())
        if data.get("format") == "tesearch-table":
            return {"name": f"table:small-groups-{Path(rel).stem}", "path": rel, "kind": "table",
                    "command": SMALLGROUPS_COMMAND, "depends_on": [], "network": data["network"],
                    "exchange": data["exchange"], "T": data["T"],
                    "note": "an optimum above its bound: the table at it (the full-table CNF's model)"}
        return {"name": f"record:small-groups-{Path(rel).stem}", "path": rel, "kind": "record",
                "command": SMALLGROUPS_COMMAND, "depends_on": [],
                "note": "the generators of a network whose optimum exceeds its bound (the table's network file)"}
    if "-fulltable-T" in name and name.startswith("s") and not name.startswith("star"):
        kind = "encoding" if name.endswith(".cnf") else "proof"
        return {"name": f"{kind}:{Path(rel).stem}", "path": rel, "kind": kind, "command": SMALLGROUPS_COMMAND,
                "depends_on": [] if kind == "encoding" else [rel.removesuffix(".drat") + ".cnf"],
                "note": "one below an optimum above its bound: the full-table CNF with the counting cut (the kernel "
                        "rebuilds it byte for byte) and CaDiCaL's DRAT proof"}
    return None


def fulltable_file(rel: str) -> bool:
    """Whether a file is the full-table campaign's: its state, tables, report, or a CNF and DRAT proof of it."""
    return rel.startswith("results/fulltable/") or rel.endswith(".cnf") or \
        (rel.endswith(".drat") and "-fulltable-T" in rel)


def fulltable_entry(rel: str) -> dict:
    """The manifest entry of a full-table campaign file (benchmarks/fulltable.py writes every one of them)."""
    name = Path(rel).name
    if rel in FULLTABLE_CALIBRATIONS:
        return {"name": f"report:fulltable-{Path(rel).stem}", "path": rel, "kind": "report",
                "command": FULLTABLE_CALIBRATIONS[rel],
                "depends_on": [], "note": "solve time of the full-table SAT model around the known optima"}
    spec = re.split(r"(?:\.state\.json|-T\d+\.json|_total-fulltable-T\d+\.(?:cnf|drat))$", name)[0]
    if spec not in FULLTABLE_CAMPAIGNS:
        raise SystemExit(f"{rel}: no full-table campaign command for {spec} (add it to FULLTABLE_CAMPAIGNS)")
    command = FULLTABLE_CAMPAIGNS[spec]
    if name.endswith(".state.json"):
        return {"name": f"record:fulltable-{spec}", "path": rel, "kind": "record", "command": command,
                "depends_on": [], "note": "the campaign's checkpoint: every width decided (tables, CNFs, proofs), "
                                          "every attempt that ran out of time, every run's wall clock"}
    if name.endswith(".json"):
        data = json.loads((ROOT / rel).read_text())
        return {"name": f"table:fulltable-{Path(rel).stem}", "path": rel, "kind": "table", "command": command,
                "depends_on": [], "network": data["network"], "exchange": data["exchange"], "T": data["T"],
                "note": "a width the full-table SAT campaign found satisfiable (the table from its model)"}
    kind = "encoding" if name.endswith(".cnf") else "proof"
    return {"name": f"{kind}:{Path(rel).stem}", "path": rel, "kind": kind, "command": command,
            "depends_on": [] if kind == "encoding" else [rel.removesuffix(".drat") + ".cnf"],
            "note": "an unsat width of the full-table SAT campaign: the CNF (the kernel rebuilds it byte for byte) "
                    "and CaDiCaL's DRAT proof"}


def main() -> None:
    suite = json.loads((ROOT / "results" / "suite.json").read_text())
    runs = json.loads((ROOT / "results" / "frontier" / "runs.json").read_text())
    lifts = json.loads((ROOT / "results" / "frontier" / "lifts.json").read_text())
    entries: list[dict] = []
    drat_commands: dict[str, tuple[str, str]] = {}  # .drat path -> (certify command, its certificate)
    enc_commands: dict[str, tuple[str, str]] = {}  # .smt2 path -> (the search that kept it, the name it writes now)
    for key, record in suite.items():
        if "--keep-encodings" in record["command"]:
            legacy = re.sub(r"[^A-Za-z0-9_.-]+", "_", record["network"])  # the name when the suite ran
            for width in record.get("refuted_widths") or []:
                enc_commands[f"encodings/{legacy}-{record['exchange']}-full-T{width}.smt2"] = (
                    with_out(record["command"], record["table"]),
                    f"encodings/{safe_name(record['network'])}-{record['exchange']}-full-T{width}.smt2")
    files = committed_files()
    for rel in files:
        path = ROOT / rel
        if rel.startswith("proofs/") and rel.endswith(".json") and not rel.startswith("proofs/tables/"):
            cert = json.loads(path.read_text())
            command = cert["created"]["command"]
            if cert.get("kind") == "word-choice":  # no table: a bound over every word choice (tesearch bound)
                entries.append({"name": f"certificate:word-choice-{Path(rel).stem}", "path": rel, "kind": "certificate",
                                "command": command.replace(" --force", ""), "depends_on": [],
                                "network": cert["network"]["spec"], "exchange": cert["network"]["exchange"],
                                "note": f"word-choice certificate (docs/certificate-format.md): every word choice "
                                        f"uses some letter at least {cert['result']['lower']} times"
                                        + (f", and one uses none more than {cert['result']['upper']}"
                                           if cert["result"]["upper"] is not None else "")
                                        + "; recorded in results/frontier/word-choice.json by "
                                          "scripts/word_choice_runs.py"})
                continue
            source = cert["table"]["source"]
            refs = [c["encoding"]["path"] for c in cert.get("impossibility_claims", [])]
            cited = ((cert.get("bounds") or {}).get("per_letter") or {}).get("attained_by")
            refs += [cited["certificate"]] if isinstance(cited, dict) else []  # the word choice it cites
            for claim in cert.get("impossibility_claims", []):
                for conf in claim.get("confirmations", []):
                    proof = conf.get("proof") if isinstance(conf.get("proof"), dict) else None
                    if proof and proof.get("path"):
                        drat_commands[proof["path"]] = (command, rel)
            entries.append({"name": f"certificate:{Path(rel).stem}", "path": rel, "kind": "certificate",
                            "command": command.replace(" --force", ""), "depends_on": [source, *refs],
                            "network": cert["network"]["spec"],
                            "exchange": cert["network"]["exchange"], "T": cert["result"]["T"]})
    for rel in files:
        path = ROOT / rel
        if any(e["path"] == rel for e in entries):
            continue
        if (small := smallgroups_entry(rel)) is not None:
            entries.append(small)
        elif rel in FIXED:
            commands, depends, note = FIXED[rel]
            kind = "report" if rel.endswith(".md") else ("encoding" if rel.endswith(".smt2") else "record")
            if rel == "results/errata-notes.md":
                kind = "record"
            stem = Path(rel).stem if rel.count("/") < 2 else Path(rel).parent.name + "-" + Path(rel).stem
            entries.append({"name": f"{kind}:{stem}" if kind != "record" else
                            f"record:{Path(rel.removeprefix('results/')).with_suffix('').as_posix().replace('/', '-')}"
                            + ("-plot" if rel.endswith(".png") else ""),
                            "path": rel, "kind": kind, "command": commands[0] if len(commands) == 1 else commands,
                            "depends_on": depends, "note": note})
        elif fulltable_file(rel):
            entries.append(fulltable_entry(rel))
        elif rel.endswith(".smt2"):
            if rel not in enc_commands:
                raise SystemExit(f"{rel}: no search record keeps this encoding")
            command, written_as = enc_commands[rel]
            entry = {"name": f"encoding:{Path(rel).stem}", "path": rel, "kind": "encoding",
                     "command": command, "depends_on": [],
                     "note": "kept by the base suite's --keep-encodings search (the width loop writes every "
                             "refuted width's encoding); the same run writes the table"}
            if written_as != rel:
                entry["written_as"] = written_as
                entry["note"] += (f". The search now names the file {written_as} (tesearch.running.files.safe_name maps ':' "
                                  f"to '-' since ce690c8; the committed name, which the certificates cite, has '_'); "
                                  f"the content is byte-identical (spot-checked: ring-4 T2, ring-6 T5, ring-8 T8 and T9)")
            entries.append(entry)
        elif rel.endswith(".drat"):
            command, cert = drat_commands[rel]
            entries.append({"name": f"proof:{Path(rel).stem}", "path": rel, "kind": "proof", "command": command,
                            "depends_on": [rel.removesuffix(".drat") + ".smt2"],
                            "note": f"the DRAT proof written by the certify run of {cert} (a SAT solver's proof "
                                    f"for the CNF form of the encoding; regenerating it rewrites {cert} too)"})
        elif rel.endswith(".json") or rel.endswith(".txt") or rel.endswith(".json.gz"):
            if rel.endswith(".json.gz"):  # a large table, gzip-compressed (read_table reads it as it is)
                data = json.loads(gzip.decompress(path.read_bytes()))
            else:
                data = (json.loads(path.read_text()) if rel.endswith(".json") else
                        {"network": "ring-6", "exchange": "total", "T": 5})
            if rel.endswith(".json") and data.get("format") != "tesearch-table":
                raise SystemExit(f"{rel}: neither a table nor a known record")
            commands, depends, note = table_entry(rel, data, suite, runs, lifts)
            prefix = "frontier-" if rel.startswith("results/frontier/") else \
                ("proofs-tables-" if rel.startswith("proofs/tables/") else "")
            stem = Path(rel).name.removesuffix(".json.gz") if rel.endswith(".json.gz") else Path(rel).stem
            entry = {"name": f"table:{prefix}{stem}", "path": rel, "kind": "table",
                     "command": commands[0], "depends_on": depends, "network": data["network"],
                     "exchange": data["exchange"], "T": data["T"], "note": note}
            entries.append(entry)
        else:
            raise SystemExit(f"{rel}: no rule (add one to scripts/make_manifest.py)")
    for e in entries:
        e["sha256"] = sha256(ROOT / e["path"])
    entries.sort(key=lambda e: (ORDER.index(e["kind"]), natural(e["path"])))
    names = [e["name"] for e in entries]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise SystemExit(f"duplicate names: {sorted(dupes)}")
    for e in entries:
        e["command"] = [current(c) for c in e["command"]] if isinstance(e["command"], list) else current(e["command"])
    MANIFEST.write_text(render(entries))
    print(f"wrote {MANIFEST.relative_to(ROOT)}: {len(entries)} entries")


ORDER = ["encoding", "table", "proof", "certificate", "record", "report"]


def natural(path: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path)]


HEADER = '''\
# results/manifest.toml: every committed result file and the command that makes it.
#
# Written by scripts/make_manifest.py (rerun it after adding or deliberately regenerating a
# file); checked by tests/test_manifest.py and `python -m scripts.reproduce --check`.
#
# Fields: name (unique), path (from the repository root), kind (table | certificate |
# encoding | proof | record | report), command (run from the repository root with the
# project's venv on PATH; a list when several runs made the file; "" when no command makes
# it, and then `note` says what it is), depends_on (files the command reads that other
# entries make), sha256 (of the committed file), and for tables and certificates network,
# exchange and T; written_as: where the command now writes a file the manifest records under
# an older name (see the entry's note).
#
# Entries that share a command are written by one run of it (a search with --keep-encodings
# writes its table and its refuted widths' encodings; a certify run writes its certificate
# and the DRAT proofs beside the encodings).
#
# How a rerun compares with the committed file: a table is the same result when its
# network, exchange, T and placements are equal; its "search"/"construction" metadata
# (seconds, solver version) may differ, so its sha256 will. A solver search is only
# reproducible in its outcome where it is deterministic for the same seed and fast enough to
# finish within its timeout; the CP-SAT entries (repack, --backend cpsat) and long Z3 runs
# may end at another width or another table of the same width. A certificate is the same
# when its checks and result agree; its "created" block and timings differ. Reports carry
# their run line (command, date, commit) and timings.
#
# Writing: `tesearch search/stratify/lift/repack/construct --out F` replace F only with a
# narrower table (--force: any); `tesearch certify -o F` replaces a certificate only by one that claims
# as much (the same network, no wider table, every impossibility claim; --force: any). Rerun entries with
# scripts/reproduce.py, which refuses to overwrite a committed file unless asked (--force), or
# writes into a scratch directory (--into DIR).
'''


def toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def render(entries: list[dict]) -> str:
    lines = [HEADER]
    fields = ("name", "path", "kind", "network", "exchange", "T", "command", "depends_on", "sha256", "written_as",
              "note")
    for e in entries:
        lines.append("[[entry]]")
        for f in fields:
            if f not in e:
                continue
            v = e[f]
            if isinstance(v, list):
                text = "[" + ", ".join(toml_string(x) for x in v) + "]"
            elif isinstance(v, int):
                text = str(v)
            else:
                text = toml_string(v)
            lines.append(f"{f} = {text}")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
