#!/usr/bin/python3
"""Bar chart of ebisu_bench JSON results: GCells/s per stencil and variant.

Usage (Debian's python3 has matplotlib):
  /usr/bin/python3 perf_tests/plot_results.py results.json [more.json ...] --out chart.png [--log] [--all]

By default each stencil shows: the best plain-Kokkos variant, plain MDRange with
Kokkos' default tiles, KokkosKernels SpMV, parallel_stencil:automatic and
parallel_stencil:generic. --all shows every variant. Only variants whose
correctness check passed are drawn (FAILED ones are listed under the chart).
The per-step device-memory bound of each file (copy bandwidth / (2 sizeof(Scalar)))
is drawn as a dashed line.
"""

import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def summary_variants(case):
    """Names to show for one case, in a fixed order."""
    names = []
    if case.get("best_plain"):
        names.append(("best plain Kokkos", case["best_plain"]))
    for label, name in [("plain MDRange, default tiles", "mdrange-default"),
                        ("KokkosKernels SpMV", "kokkoskernels-spmv"),
                        ("parallel_stencil:automatic", "parallel_stencil:automatic"),
                        ("parallel_stencil:generic", "parallel_stencil:generic")]:
        names.append((label, name))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="ebisu_bench JSON file(s)")
    ap.add_argument("--out", default="ebisu_bench.png", help="PNG file to write")
    ap.add_argument("--log", action="store_true", help="logarithmic GCells/s axis")
    ap.add_argument("--all", action="store_true", help="every variant instead of the summary set")
    args = ap.parse_args()

    runs = []
    for path in args.json:
        with open(path) as f:
            runs.append((path, json.load(f)))

    stencils = []  # suite order, union over files
    for _, run in runs:
        for case in run["cases"]:
            if case["stencil"] not in stencils:
                stencils.append(case["stencil"])

    # series key -> {stencil: gcells}
    series = {}
    failed = []
    for path, run in runs:
        tag = "" if len(runs) == 1 else "%s %s: " % (run["device"]["name"], run["precision"])
        for case in run["cases"]:
            by_name = {v["name"]: v for v in case["variants"]}
            wanted = ([(v["name"], v["name"]) for v in case["variants"]] if args.all else summary_variants(case))
            for label, name in wanted:
                v = by_name.get(name)
                if v is None:
                    continue
                if v["status"] == "FAILED":
                    failed.append("%s%s %s: %s" % (tag, case["stencil"], name, v.get("note", "")))
                    continue
                if v["status"] != "ok" or not v.get("gcells_per_s_median"):
                    continue
                series.setdefault(tag + label, {})[case["stencil"]] = v["gcells_per_s_median"]

    if not series:
        sys.exit("plot_results.py: no successful variants in the input")
    if not args.all:  # a fixed series order, whatever each case offered first
        order = [label for label, _ in summary_variants({"best_plain": "x"})]
        series = dict(sorted(series.items(), key=lambda kv: next(
            (i for i, o in enumerate(order) if kv[0].endswith(o)), len(order))))

    nseries = len(series)
    width = 0.8 / nseries
    fig, ax = plt.subplots(figsize=(min(20, max(9, 0.9 * len(stencils) + 0.08 * nseries * len(stencils))), 6.5))
    for k, (label, values) in enumerate(series.items()):
        xs = [i - 0.4 + (k + 0.5) * width for i, s in enumerate(stencils) if s in values]
        ys = [values[s] for s in stencils if s in values]
        ax.bar(xs, ys, width=width, label=label)

    linestyles = ["--", ":", "-.", (0, (5, 1))]
    for j, (_, run) in enumerate(runs):
        bound = run["bandwidth"]["per_step_bound_gcells_per_s"]
        ax.axhline(bound, color="black", linestyle=linestyles[j % len(linestyles)], linewidth=1.2,
                   label="per-step memory bound %s(%.0f GB/s copy): %.3g GCells/s" % (
                       "" if len(runs) == 1 else run["device"]["name"] + " ",
                       run["bandwidth"]["copy_bandwidth_gbs_best"], bound))

    ax.set_xticks(range(len(stencils)))
    ax.set_xticklabels(stencils, rotation=30, ha="right")
    ax.set_ylabel("GCells/s (interior cells x T / median time)")
    if args.log:
        ax.set_yscale("log")
    first = runs[0][1]
    title = "EbisuKokkos stencil benchmark: %s, %s, Kokkos %s %s, T=%s, %s" % (
        first["device"]["name"], first["precision"], first["kokkos_version"], first["execution_space"],
        first["steps"], first["date_utc"][:10])
    if len(runs) > 1:
        title = "EbisuKokkos stencil benchmark: " + ", ".join(
            "%s %s %s" % (r["device"]["name"], r["precision"], r["date_utc"][:10]) for _, r in runs)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=min(3, nseries + len(runs)))
    if failed:
        fig.text(0.01, 0.01, "FAILED (not drawn): " + "; ".join(failed)[:400], fontsize=7, color="red")
    fig.tight_layout()
    fig.savefig(args.out, dpi=130)
    print("wrote %s" % args.out)


if __name__ == "__main__":
    main()
