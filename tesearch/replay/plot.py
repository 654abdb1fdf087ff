"""Link utilisation per step, drawn to a PNG (matplotlib, imported on use)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import numpy as np

from tesearch.kernel.loader import PortModel
from tesearch.replay.report import ReplayReport


def plot_utilization(report_or_data: ReplayReport | Mapping[str, Any] | str | Path, png_path: str | Path,
                     model: PortModel | str | None = None) -> Path:
    """Draw the link utilisation per step (transmissions / capacity) to a PNG file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tesearch.replay import replay_data, replay_file

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
    png_path = Path(png_path)
    png_path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png_path, dpi=110)
    plt.close(fig)
    return png_path
