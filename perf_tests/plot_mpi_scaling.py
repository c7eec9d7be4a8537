#!/usr/bin/env python3
"""Plot of run_mpi_scaling.sh results: GCells/s on 1 and N GPUs per case, with the scaling.

    plot_mpi_scaling.py OUT.png RUN.jsonl[:LABEL] [RUN.jsonl[:LABEL] ...]
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(path):
    """The runs of one mpi_scaling.jsonl, Backend::automatic only."""
    return [r for r in (json.loads(line) for line in open(path) if line.strip())
            if r.get("backend", "automatic") == "automatic"]


def cases(path, slot=lambda r: r["ranks"]):
    """{(stencil, scaling): {slot(run): run}}; by default the runs of a case by their rank count."""
    out = {}
    for r in rows(path):
        out.setdefault((r["stencil"], r["scaling"]), {})[slot(r)] = r
    return out


def main():
    png, runs = sys.argv[1], sys.argv[2:]
    fig, axes = plt.subplots(1, len(runs), figsize=(6.5 * len(runs), 4.6), squeeze=False)
    for ax, spec in zip(axes[0], runs):
        path, _, label = spec.partition(":")
        data = cases(path)
        names, one, many, notes = [], [], [], []
        for (stencil, scaling), by_ranks in sorted(data.items()):
            n = max(by_ranks)
            if n == 1 or 1 not in by_ranks:
                continue
            a, b = by_ranks[1], by_ranks[n]
            names.append(f"{stencil}\n{scaling}\n{a['global']}\n-> {b['global']}" if scaling == "weak"
                         else f"{stencil}\n{scaling}\n{a['global']}")
            one.append(a["gcells_per_s"])
            many.append(b["gcells_per_s"])
            ratio = b["gcells_per_s"] / a["gcells_per_s"]
            notes.append(f"{ratio:.2f}x" if scaling == "strong" else f"{100 * ratio / n:.1f}%")
        x = range(len(names))
        ax.bar([i - 0.2 for i in x], one, 0.4, label="1 GPU")
        ax.bar([i + 0.2 for i in x], many, 0.4, label=f"{n} GPUs")
        for i, t in enumerate(notes):
            ax.text(i + 0.2, many[i], t, ha="center", va="bottom", fontsize=9)
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, fontsize=8)
        ax.set_ylabel("GCells/s (fp64, whole domain)")
        device = next(iter(next(iter(data.values())).values()))["device"]
        aware = next(iter(next(iter(data.values())).values())).get("mpi_device_aware", False)
        ax.set_title(f"{label or device}\n({'CUDA-aware' if aware else 'host-staged'} MPI; strong: speed-up, weak: efficiency)",
                     fontsize=10)
        ax.set_ylim(0, max(many + one) * 1.15)
        ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    main()
