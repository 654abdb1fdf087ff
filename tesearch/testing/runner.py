"""Running one case: its sandbox (files, links, FIFOs, directories, device nodes), the command in a session of its own (forked, or a real process), every process it starts watched, and :func:`run_case`, which runs, snapshots and judges it."""

from __future__ import annotations

import hashlib
import os
import shlex
import signal
import stat
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from tesearch.testing.cases import (ALLOWED_EXITS, CASE_SECONDS, Case, CaseResult, LEFTOVER_GRACE, ROOT, RUNNER_FILES,
                                    Run)
from tesearch.testing.judge import TRACEBACK, judge, judge_claims, option_value


# ------------------------------------------------------------------ processes

def _proc_stat(pid: int) -> tuple[str, int, int, int, str] | None:
    """(state, ppid, session, start time, name) of a live process, or None."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = raw[raw.find("(") + 1:raw.rfind(")")]
    rest = raw[raw.rfind(")") + 2:].split()
    return rest[0], int(rest[1]), int(rest[3]), int(rest[19]), name


def _all_processes() -> dict[int, tuple[str, int, int, int, str]]:
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _proc_stat(int(entry))
            if info is not None:
                out[int(entry)] = info
    return out


class Watch:
    """Every process seen in a session or below its leader, by (pid, start time)."""

    def __init__(self, leader: int):
        self.leader = leader
        self.seen: dict[tuple[int, int], str] = {}

    def poll(self) -> None:
        """Record the session's processes and the leader's descendants now."""
        procs = _all_processes()
        family = {self.leader}
        changed = True
        while changed:
            changed = False
            for pid, (_, ppid, _, _, _) in procs.items():
                if ppid in family and pid not in family:
                    family.add(pid)
                    changed = True
        for pid, (state, _, session, start, name) in procs.items():
            if pid != self.leader and (session == self.leader or pid in family) and state != "Z":
                self.seen[(pid, start)] = name

    def alive(self) -> dict[int, str]:
        """Processes recorded (or in the session) that still run, leader excluded."""
        self.poll()
        out = {}
        for (pid, start), name in self.seen.items():
            info = _proc_stat(pid)
            if info is not None and info[3] == start and info[0] != "Z":
                out[pid] = name
        return out

    def kill_all(self) -> None:
        """SIGKILL every live process this watch recorded (the fuzzer started them)."""
        for pid in self.alive():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def _exec_env(tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ, **(extra or {}))
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["TMPDIR"] = str(tmp)
    env["RAY_TMPDIR"] = str(tmp)
    env.pop("TESEARCH_ENTRY_PID", None)
    return env


def _become_main_process() -> None:
    """In a forked child: forget a multiprocessing pool worker's state (a daemon may not start processes)."""
    import multiprocessing.process as mp_process

    mp_process._current_process._config["daemon"] = False
    mp_process._children = set()


def run_process(args: list[str], work: Path, case_dir: Path, *, exec_mode: bool, seconds: float,
                sig: tuple[int, float, bool] | None = None, env: dict[str, str] | None = None) -> Run:
    """Run ``tesearch ARGS`` in ``work`` in a session of its own; watch it and every process it starts.

    Long because the fork and the exec paths share one watch loop (the deadline, the signal at its delay,
    the leftover processes) that must see the child from its first instant to its reaping."""
    tmp = case_dir / "tmp"
    tmp.mkdir(exist_ok=True)
    out_path, err_path = case_dir / "stdout", case_dir / "stderr"
    started = time.monotonic()
    if exec_mode:
        # an ignored SIGINT is inherited through exec (a shell's `&` job ignores it): the command must start
        # with the default disposition, as from a terminal, or its Ctrl-C cases prove nothing
        previous = signal.getsignal(signal.SIGINT)
        if previous == signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                proc = subprocess.Popen([sys.executable, "-m", "tesearch.entry", *args], cwd=work, stdout=out,
                                        stderr=err, stdin=subprocess.DEVNULL, env=_exec_env(tmp, env),
                                        start_new_session=True)
        finally:
            signal.signal(signal.SIGINT, previous)
        pid = proc.pid
    else:
        pid = os.fork()
        if pid == 0:  # the child: become `tesearch ARGS` in the sandbox, in a session of its own
            code = 0
            try:
                _become_main_process()
                os.setsid()
                os.chdir(work)
                os.environ.update({"TMPDIR": str(tmp), "RAY_TMPDIR": str(tmp), **(env or {})})
                tempfile.tempdir = str(tmp)
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                os.dup2(os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
                os.dup2(os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
                # a test runner may have replaced the streams with its capture objects: write to fds 1 and 2
                sys.stdin = open(0, closefd=False)  # noqa: SIM115
                sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
                sys.stderr = open(2, "w", closefd=False, buffering=1)  # noqa: SIM115
                signal.signal(signal.SIGINT, signal.default_int_handler)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                sys.argv = ["tesearch", *args]
                from tesearch.cli.app import main

                main(args=args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except BaseException:  # noqa: BLE001 - anything escaping main is a failure the judge must see
                os.write(2, traceback.format_exc().encode())
                code = 99
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                except BaseException:  # noqa: BLE001
                    pass
            os._exit(code)
        proc = None
    watch = Watch(pid)
    try:
        code: int | None = None
        sent: float | None = None
        deadline = started + seconds
        next_poll = 0.0
        while True:
            now = time.monotonic()
            if proc is not None:
                status = proc.poll()
                done = status is not None
                if done:
                    code = status if status >= 0 else 128 - status  # killed by a signal: 128 + n, as a shell says
            else:
                done_pid, status = os.waitpid(pid, os.WNOHANG)
                done = done_pid != 0
                if done:
                    code = os.waitstatus_to_exitcode(status)
                    code = code if code >= 0 else 128 - code
            if done:
                break
            if sig is not None and sent is None and now - started >= sig[1]:
                try:
                    (os.killpg if sig[2] else os.kill)(pid, sig[0])
                except OSError:
                    pass
                sent = now - started
            if now >= deadline:
                watch.poll()
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
                watch.kill_all()
                if proc is not None:
                    proc.wait()
                else:
                    os.waitpid(pid, 0)
                code = None
                break
            if now >= next_poll:
                watch.poll()
                next_poll = now + 0.2
            time.sleep(0.01)
    except BaseException:  # Ctrl-C or the harness stopped (a worker's SIGTERM): the case and all it started go too
        _stop_case(pid, proc, watch)
        raise
    elapsed = time.monotonic() - started
    leftovers: dict[int, str] = {}
    if code is not None:
        grace_end = time.monotonic() + LEFTOVER_GRACE
        while True:
            leftovers = watch.alive()
            if not leftovers or time.monotonic() >= grace_end:
                break
            time.sleep(0.1)
        watch.kill_all()
    text = [p.read_text(errors="replace") if p.exists() else "" for p in (out_path, err_path)]
    return Run(code, text[0], text[1], elapsed, sent, [f"{name} (pid {pid})" for pid, name in sorted(leftovers.items())],
               os.getloadavg()[0] / (os.cpu_count() or 1))


def _stop_case(pid: int, proc: subprocess.Popen | None, watch: Watch) -> None:
    """Kill a case's session and every process it started, and reap it (the harness is stopping)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    watch.kill_all()
    try:
        if proc is not None:
            proc.wait(timeout=5)
        else:
            os.waitpid(pid, 0)
    except (OSError, subprocess.TimeoutExpired):
        pass


# ------------------------------------------------------------------ the sandbox

def _entry_state(path: Path) -> tuple:
    st_ = path.lstat()
    if stat.S_ISLNK(st_.st_mode):
        return ("symlink", os.readlink(path))
    if stat.S_ISREG(st_.st_mode):
        return ("file", hashlib.sha256(path.read_bytes()).hexdigest())
    if stat.S_ISDIR(st_.st_mode):
        return ("directory",)
    if stat.S_ISFIFO(st_.st_mode):
        return ("fifo",)
    if stat.S_ISCHR(st_.st_mode):
        return ("device", st_.st_rdev)
    return ("other", stat.S_IFMT(st_.st_mode))


def snapshot(case_dir: Path) -> dict[str, tuple]:
    """Every entry under the case directory (runner files aside) -> its kind and content hash."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(case_dir):
        here = Path(dirpath)
        if here == case_dir:
            dirnames[:] = [d for d in dirnames if d not in RUNNER_FILES]
            filenames = [f for f in filenames if f not in RUNNER_FILES]
        for name in [*dirnames, *filenames]:
            path = here / name
            out[path.relative_to(case_dir).as_posix()] = _entry_state(path)
    return out


def make_sandbox(case: Case, case_dir: Path) -> Path:
    """Write the case's files, links, FIFOs, directories and device nodes; the working directory."""
    work = case_dir / "work"
    work.mkdir(parents=True)
    for name in case.dirs:
        (work / name).mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for name, target in case.links.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, work / name)
    for name in case.fifos:
        os.mkfifo(work / name)
    for name in case.devices:
        if os.geteuid() == 0:
            os.mknod(work / name, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a null device, in the sandbox
        else:  # nobody else can make one; a regular file stands in (the device checks then do not apply)
            (work / name).write_bytes(b"")
    return work


def run_case(case: Case, case_dir: Path) -> CaseResult:
    """Set up the case in ``case_dir`` (which must not exist), run it, and judge it."""
    case_dir.mkdir(parents=True)
    work = make_sandbox(case, case_dir)
    for setup in case.setup:
        run_process(setup, work, case_dir, exec_mode=False, seconds=CASE_SECONDS)
    before = snapshot(case_dir)
    seconds = case.seconds
    limit = option_value(case.args, "--timeout")
    try:
        if limit is not None and 0 < float(limit) < seconds - 15:
            seconds = float(limit) + 15
    except ValueError:
        pass
    run = run_process(case.args, work, case_dir, exec_mode=case.exec_mode, seconds=seconds, sig=case.signal,
                      env=case.env)
    after = snapshot(case_dir)
    wrong = judge(case, run, before, after, case_dir)
    if case.follow_up and run.exit_code == 0:
        second = run_process(case.follow_up, work, case_dir, exec_mode=False, seconds=CASE_SECONDS)
        follow = Case(case.follow_up, tampered=case.tampered)
        problems = judge_claims(follow, second)
        if second.exit_code not in ALLOWED_EXITS or TRACEBACK in second.stderr:
            problems.append(f"exit {second.exit_code}")
        if second.exit_code == 1:
            problems.append("check-proof REFUTES the certificate certify just wrote")
        wrong += [f"then `{shlex.join(['tesearch', *case.follow_up])}`: {p}" for p in problems]
    return CaseResult(case, run.exit_code, run.seconds, wrong, run.stderr[-2000:])
