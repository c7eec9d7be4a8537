"""Bar chart of the host state-case rows (final/*.json): each EbisuKokkos row against the best plain
variant of its run (the hand-written OpenMP loop at every row). Run: python3 plot_states.py"""
import glob
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))
rows = []
for path in sorted(glob.glob(os.path.join(here, "final", "*.json"))):
    for case in json.load(open(path))["cases"]:
        by_name = {v["name"]: v for v in case["variants"]}
        label = "%s %s T=%d" % (case["stencil"], "x".join(str(d) for d in case["domain_zyx"]), case["steps"])
        rows.append((label, [by_name.get("parallel_stencil:" + k, {}).get("speedup_vs_best_plain", 0)
                             for k in ("generic", "automatic", "ebisu")]))
fig, ax = plt.subplots(figsize=(11, 5))
width = 0.27
for i, (name, colour) in enumerate((("generic", "#999999"), ("automatic", "#1f77b4"), ("ebisu (forced)", "#ff7f0e"))):
    ax.bar([x + (i - 1) * width for x in range(len(rows))], [r[1][i] for r in rows], width, label=name, color=colour)
ax.axhline(1.0, color="black", linewidth=0.8)
ax.set_xticks(range(len(rows)))
ax.set_xticklabels([r[0] for r in rows], rotation=40, ha="right", fontsize=8)
ax.set_ylabel("x the hand-written OpenMP loop")
ax.set_title("Several state fields / time levels on 16 Xeon threads (fp64, AVX-512, 2026-11-27)")
ax.legend()
fig.tight_layout()
fig.savefig(os.path.join(here, "states.png"), dpi=110)
