#!/usr/bin/env python3
"""Tables of the A/B runs: HEAD's binary and the new one in alternating processes (new, head, head, new),
each variant against the hand-written `omp parallel for simd` loop of its own process."""
import json
import pathlib

here = pathlib.Path(__file__).resolve().parent
order = ["new-r1", "head-r1", "head-r2", "new-r2"]
for run in ["ab-rows", "ab-rows-balanced"]:
    print(f"\n{run}\n")
    print("| stencil | process | hand loop ms | automatic ms | automatic / loop | generic / loop | DoubleBuffer / loop | work items |")
    print("|---|---|---|---|---|---|---|---|")
    rows = {}
    for tag in order:
        for dim in ["3d", "2d"]:
            for case in json.load(open(here / run / f"{tag}-{dim}.json"))["cases"]:
                ms = {v["name"]: v["median_s"] * 1e3 for v in case["variants"] if v["status"] == "ok"}
                plan = {v["name"]: v.get("parameters", {}).get("plan", "") for v in case["variants"]}
                rows.setdefault(case["stencil"], {})[tag] = (ms, plan)
    for stencil, by_tag in rows.items():
        for tag in order:
            ms, plan = by_tag[tag]
            loop = ms["openmp-simd-loop"]
            ratio = lambda k: loop / ms[k]
            p = plan["parallel_stencil:automatic"]
            items = p.split("work items")[0].split(",")[-1].strip() if "work items" in p else "generic"
            print(f"| {stencil} | {tag} | {loop:.0f} | {ms['parallel_stencil:automatic']:.0f} | "
                  f"{ratio('parallel_stencil:automatic'):.2f}x | {ratio('parallel_stencil:generic'):.2f}x | "
                  f"{ratio('parallel_stencil:double-buffer'):.2f}x | {items} |")
