#!/usr/bin/python3
"""GCells/s against domain size from the JSON of perf_tests/run_size_sweep.sh.

Usage (Debian's python3 has matplotlib):
  /usr/bin/python3 perf_tests/plot_size_sweep.py OUT_DIR [more dirs or .json] --out sweep.png [--linear]

Reads every ebisu_bench JSON in OUT_DIR (and one folder below it). One panel per
stencil, x = interior cells (log), y = GCells/s (interior cells x T / median time;
log unless --linear), one line each for:
  - best plain Kokkos: per size the fastest correct plain-Kokkos variant, the
    graph-replayed ones included (its name is in the table);
  - best per-step plain: the same without the graph-* variants (thin, dotted);
  - parallel_stencil:automatic (and automatic-model, the model alone, when run),
    ebisu-sm, ebisu-device, ebisu-in-place (Backend::ebisu with Strategy::sm_tiling /
    device_tiling / in_place_tiling forced; the strategy that ran is in the table);
  - when run (host sweeps, perf_tests/run_host_sweep.sh): parallel_stencil:generic
    and ebisu-auto (Backend::ebisu forced: the host temporal-blocking path);
  - the per-step memory bound of the run: copy bandwidth / (2 sizeof(Scalar)).
Only variants whose check passed are drawn. The table (stdout) is also written as
sweep_summary.csv and sweep_summary.md next to the PNG. A (stencil, size) found in
several files is taken from the newest one.
"""

import argparse
import csv
import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SUITE = ["j1d3pt", "j1d5pt", "j2d5pt", "j2d9pt", "j2d9pt-gol", "j2d25pt",
         "j3d7pt", "j3d13pt", "j3d17pt", "j3d27pt", "poisson"]
EBISU = [("automatic", "parallel_stencil:automatic"), ("ebisu-sm", "ebisu-sm"), ("ebisu-device", "ebisu-device"),
         ("ebisu-in-place", "ebisu-in-place"), ("automatic-model", "parallel_stencil:automatic-model"),
         ("generic", "parallel_stencil:generic"), ("ebisu-auto", "ebisu-auto")]
# Column titles of the printed / .md table per EBISU label.
EBISU_TITLES = {"automatic": "automatic", "ebisu-sm": "ebisu-sm", "ebisu-device": "ebisu-device",
                "ebisu-in-place": "ebisu-in-place", "automatic-model": "auto (model only)", "generic": "generic",
                "ebisu-auto": "ebisu-auto"}


def json_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "*.json")) + glob.glob(os.path.join(p, "*", "*.json")))
        else:
            files.append(p)
    return files


def ok(v):
    return v is not None and v.get("status") == "ok" and (v.get("gcells_per_s_median") or 0) > 0


def param(v, key, default=""):
    return (v or {}).get("parameters", {}).get(key, default)


def load(paths):
    """(stencil, interior_cells) -> row dict; plus the list of FAILED variants."""
    rows, failed = {}, []
    for path in json_files(paths):
        try:
            with open(path) as f:
                run = json.load(f)
        except (OSError, ValueError) as ex:
            print("plot_size_sweep.py: skipping %s: %s" % (path, ex), file=sys.stderr)
            continue
        if not isinstance(run, dict) or "cases" not in run:
            continue
        for case in run["cases"]:
            key = (case["stencil"], int(case["interior_cells"]))
            if key in rows and rows[key]["date"] > run.get("date_utc", ""):
                continue
            variants = case.get("variants", [])
            for v in variants:
                if v.get("status") == "FAILED":
                    failed.append("%s %s %s: %s" % (case["stencil"], "x".join(map(str, case["domain_zyx"])),
                                                    v["name"], v.get("note", "")))
            plain = [v for v in variants if v.get("family") == "plain-kokkos" and ok(v)]
            per_step = [v for v in plain if not v["name"].startswith("graph-")]
            best = max(plain, key=lambda v: v["gcells_per_s_median"], default=None)
            best_step = max(per_step, key=lambda v: v["gcells_per_s_median"], default=None)
            by_name = {v["name"]: v for v in variants}
            row = {
                "date": run.get("date_utc", ""),
                "device": run.get("device", {}).get("name", "?"),
                "precision": case.get("precision", run.get("precision", "?")),
                "stencil": case["stencil"],
                "domain": "x".join(str(d) for d in case["domain_zyx"]),
                "interior_cells": int(case["interior_cells"]),
                "steps": case["steps"],
                "bound": case.get("bound_gcells_per_s", run["bandwidth"]["per_step_bound_gcells_per_s"]),
                "best_plain": best["name"] if best else "",
                "best_plain_gcells": best["gcells_per_s_median"] if best else None,
                "best_step_plain": best_step["name"] if best_step else "",
                "best_step_plain_gcells": best_step["gcells_per_s_median"] if best_step else None,
            }
            for label, name in EBISU:
                v = by_name.get(name)
                row[label] = v["gcells_per_s_median"] if ok(v) else None
                row[label + ":status"] = v.get("status", "") if v else "absent"
                row[label + ":ran"] = ("%s/%s d%s" % (param(v, "backend"), param(v, "strategy"),
                                                      param(v, "temporal_depth")) if ok(v) else
                                       (v.get("status", "?") if v else "-"))
            rows[key] = row
    return rows, failed


def ratio(a, b):
    return a / b if a and b else None


def fmt(x, spec="%.1f"):
    return "-" if x is None else spec % x


def table(rows):
    head = ["stencil", "domain", "interior_cells", "T", "best_plain", "best_plain_gcells",
            "best_per_step_plain", "best_per_step_gcells", "graph_gain"]
    for label, _ in EBISU:
        key = label.replace("-", "_")
        head += [key + "_gcells", key + "_vs_best_plain", key + "_ran"]
    head.append("bound_gcells")
    body = []
    order = {s: i for i, s in enumerate(SUITE)}
    for key in sorted(rows, key=lambda k: (order.get(k[0], 99), k[0], k[1])):
        r = rows[key]
        line = [r["stencil"], r["domain"], r["interior_cells"], r["steps"], r["best_plain"] or "-",
                fmt(r["best_plain_gcells"], "%.2f"), r["best_step_plain"] or "-", fmt(r["best_step_plain_gcells"], "%.2f"),
                fmt(ratio(r["best_plain_gcells"], r["best_step_plain_gcells"]), "%.2f")]
        for label, _ in EBISU:
            line += [fmt(r[label], "%.2f"), fmt(ratio(r[label], r["best_plain_gcells"]), "%.2f"), r[label + ":ran"]]
        line.append(fmt(r["bound"], "%.1f"))
        body.append(line)
    return head, body


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="sweep output folder(s) or JSON files")
    ap.add_argument("--out", default="sweep.png", help="PNG to write (the summary goes next to it)")
    ap.add_argument("--linear", action="store_true", help="linear GCells/s axis")
    args = ap.parse_args()

    rows, failed = load(args.inputs)
    if not rows:
        sys.exit("plot_size_sweep.py: no ebisu_bench cases in %s" % " ".join(args.inputs))

    head, body = table(rows)
    base = os.path.join(os.path.dirname(os.path.abspath(args.out)), "sweep_summary")
    with open(base + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(body)
    # The printed / .md table: the EBISU variants that ran at some size, then the bound.
    short = [0, 1, 3, 4, 5, 8]
    names = ["stencil", "domain", "T", "best plain", "GCells/s", "graph x"]
    for k, (label, _) in enumerate(EBISU):
        first = 9 + 3 * k
        if any(line[first] != "-" for line in body):
            short += [first, first + 1, first + 2]
            names += [EBISU_TITLES[label], "vs best", "ran"]
    short.append(len(head) - 1)
    names.append("bound")
    lines = ["| " + " | ".join(names) + " |", "|" + "---|" * len(names)]
    lines += ["| " + " | ".join(str(line[i]) for i in short) + " |" for line in body]
    first = next(iter(rows.values()))
    title = "EbisuKokkos size sweep: %s, %s, %s" % (first["device"], first["precision"], first["date"][:10])
    with open(base + ".md", "w") as f:
        f.write("# " + title + "\n\nGCells/s = interior cells x T / median time; 'vs best' = over the best plain "
                "Kokkos variant (graph-replayed included) at that size; 'graph x' = best plain / best per-step "
                "plain; 'ran' = backend/strategy and depth that ran.\n\n" + "\n".join(lines) + "\n")
        if failed:
            f.write("\nFAILED:\n\n" + "\n".join("- " + x for x in failed) + "\n")
    widths = [max(len(names[k]), max(len(str(line[i])) for line in body)) for k, i in enumerate(short)]
    print(title)
    print("  ".join(n.ljust(wd) for n, wd in zip(names, widths)))
    for line in body:
        print("  ".join(str(line[i]).ljust(wd) for i, wd in zip(short, widths)))
    if failed:
        print("FAILED:\n  " + "\n  ".join(failed))

    order = {s: i for i, s in enumerate(SUITE)}
    stencils = sorted({k[0] for k in rows}, key=lambda s: (order.get(s, 99), s))
    ncols = min(4, len(stencils))
    nrows = (len(stencils) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols + 0.5, 3.6 * nrows + 1.2), squeeze=False)
    styles = [("best plain Kokkos (graph incl.)", "best_plain_gcells", dict(color="tab:blue", marker="o", lw=2)),
              ("best per-step plain", "best_step_plain_gcells", dict(color="tab:blue", ls=":", lw=1, marker=".")),
              ("parallel_stencil:automatic", "automatic", dict(color="tab:red", marker="s", lw=2)),
              ("ebisu-sm (sm_tiling forced)", "ebisu-sm", dict(color="tab:green", marker="^", lw=1.3)),
              ("ebisu-device (device_tiling forced)", "ebisu-device", dict(color="tab:purple", marker="v", lw=1.3)),
              ("ebisu-in-place (in_place_tiling forced)", "ebisu-in-place", dict(color="tab:brown", marker="P", lw=1.3)),
              ("automatic, model only (no timing runs)", "automatic-model", dict(color="tab:red", ls="--", lw=1)),
              ("parallel_stencil:generic", "generic", dict(color="tab:orange", marker="x", lw=1.3)),
              ("ebisu-auto (Backend::ebisu forced)", "ebisu-auto", dict(color="tab:green", marker="D", lw=1.3)),
              ("per-step memory bound", "bound", dict(color="black", ls="--", lw=1, marker="_"))]
    for k, stencil in enumerate(stencils):
        ax = axes[k // ncols][k % ncols]
        pts = sorted((key[1], rows[key]) for key in rows if key[0] == stencil)
        for label, field, style in styles:
            xy = [(x, r[field]) for x, r in pts if r.get(field)]
            if xy:
                ax.plot([p[0] for p in xy], [p[1] for p in xy], label=label, markersize=4, **style)
        ax.set_xscale("log")
        if not args.linear:
            ax.set_yscale("log")
        ax.set_title(stencil, fontsize=10)
        ax.grid(alpha=0.3, which="both")
        ax.set_xlabel("interior cells", fontsize=8)
        if k % ncols == 0:
            ax.set_ylabel("GCells/s", fontsize=8)
        ax.tick_params(labelsize=7)
    for k in range(len(stencils), nrows * ncols):
        axes[k // ncols][k % ncols].axis("off")
    handles, labels = {}, []
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in handles:
                handles[l] = h
                labels.append(l)
    fig.legend([handles[l] for l in labels], labels, loc="lower center", ncol=min(3, len(labels)), fontsize=8)
    fig.suptitle(title, fontsize=11)
    if failed:
        fig.text(0.01, 0.005, "FAILED (not drawn): " + "; ".join(failed)[:300], fontsize=6, color="red")
    fig.tight_layout(rect=(0, (0.1 + 0.16 * ((len(labels) + 2) // 3)) / fig.get_figheight(), 1, 0.97))
    fig.savefig(args.out, dpi=130)
    print("wrote %s, %s.csv, %s.md" % (args.out, base, base))


if __name__ == "__main__":
    main()
