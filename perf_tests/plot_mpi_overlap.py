#!/usr/bin/env python3
"""Plot of run_mpi_scaling.sh ... overlap results: per case, one GPU and N GPUs with the exchange
overlapped (on), not (off) and as measured (auto), GCells/s; one panel per run (e.g. per MPI build).

    plot_mpi_overlap.py OUT.png RUN.jsonl[:LABEL] [RUN.jsonl[:LABEL] ...]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_mpi_scaling  # noqa: E402

MODES = [("one GPU", "#999999"), ("off", "#4c72b0"), ("on", "#dd8452"), ("automatic", "#55a868")]


def overlap_mode(run):
    return "one GPU" if run["ranks"] == 1 else run.get("overlap", "automatic")


def main():
    png, runs = sys.argv[1], sys.argv[2:]
    fig, axes = plt.subplots(1, len(runs), figsize=(7.0 * len(runs), 4.8), squeeze=False)
    for ax, spec in zip(axes[0], runs):
        path, _, label = spec.partition(":")
        data = plot_mpi_scaling.cases(path, overlap_mode)
        keys = sorted(data)
        width = 0.8 / len(MODES)
        device = ""
        for m, (mode, colour) in enumerate(MODES):
            xs, ys = [], []
            for i, key in enumerate(keys):
                if mode in data[key]:
                    xs.append(i + (m - (len(MODES) - 1) / 2) * width)
                    ys.append(data[key][mode]["gcells_per_s"])
                    device = data[key][mode]["device"]
            bars = ax.bar(xs, ys, width, color=colour, label=mode if mode == "one GPU" else f"2 GPUs, overlap {mode}")
            for x, y in zip(xs, ys):
                ax.text(x, y, f"{y:.0f}", ha="center", va="bottom", fontsize=7, rotation=90)
        names = []
        for key in keys:
            one = data[key].get("one GPU")
            auto = data[key].get("automatic")
            ratio = f"\n{auto['gcells_per_s'] / one['gcells_per_s']:.2f}x" if one and auto else ""
            if key[1] == "weak" and one and auto:
                ratio = f"\n{100 * auto['gcells_per_s'] / (2 * one['gcells_per_s']):.0f}% eff."
            names.append(f"{key[0]} {key[1]}\n{(auto or one)['global']}{ratio}")
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(names, fontsize=8)
        ax.set_ylabel("GCells/s (fp64, global interior)")
        ax.set_title(f"{label or path}\n{device}", fontsize=10)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.3)
        ax.legend(fontsize=7, loc="upper center", ncol=4)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("Distributed parallel_stencil: the halo exchange overlapped with the interior's steps", fontsize=11)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    main()
