"""Link utilisation per step, drawn to a PNG or SVG (matplotlib, imported on use), written by the one safe writer."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from tesearch.running.files import FIGURE_KIND, check_output, write_output
from tesearch.checking.kernel.loader import PortModel
from tesearch.checking.replay.report import ReplayReport


def plot_utilization(report_or_data: ReplayReport | Mapping[str, Any] | str | Path, png_path: str | Path,
                     model: PortModel | str | None = None, *, inputs: Iterable[str | Path | None] = (),
                     force: bool = False) -> Path:
    """Draw the link utilisation per step (transmissions / capacity) to a PNG (or SVG) file.

    The picture is written by :func:`tesearch.running.files.write_output`: never over one of ``inputs``, a
    link or a device, nor without ``force`` over a file that is not a picture; no directory is created.
    """
    png_path = Path(png_path)
    check_output(png_path, kind=FIGURE_KIND, inputs=inputs, force=force)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tesearch.checking.replay import replay_data, replay_file

    if isinstance(report_or_data, ReplayReport):
        report = report_or_data
    elif isinstance(report_or_data, (str, Path)):
        report = replay_file(report_or_data, model)
    else:
        report = replay_data(report_or_data, model)
    use = report.link_use_per_step if report.link_use_per_step is not None else np.zeros(0)
    share = use / max(report.capacity_per_step, 1)
    fig, ax = plt.subplots(figsize=(9, 3.2))
    steps = np.arange(len(share))
    if len(share) > 400:
        ax.plot(steps, share, linewidth=0.6)
    else:
        ax.bar(steps, share, width=1.0)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("step")
    unit = "directed links" if report.model is PortModel.ALL_PORT else "node send ports"
    ax.set_ylabel(f"share of {unit} busy")
    ax.set_title(f"{report.network} ({report.model.value}): {report.transmissions} transmissions in "
                 f"{report.completion_time} steps, mean {share.mean() if len(share) else 0:.3f}")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=png_path.suffix.lower()[1:], dpi=110)
    plt.close(fig)
    return write_output(png_path, buffer.getvalue(), kind=FIGURE_KIND, inputs=inputs, force=force)
