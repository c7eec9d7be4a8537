#!/usr/bin/env python3
"""Table of the A/B run: HEAD's binary and the new one in alternating processes (ab/*.json)."""
import json
import pathlib

here = pathlib.Path(__file__).resolve().parent / "ab"
order = ["new-r1", "head-r1", "head-r2", "new-r2"]
rows = {}
for tag in order:
    for dim in ["3d", "2d"]:
        for case in json.load(open(here / f"{tag}-{dim}.json"))["cases"]:
            ms = {v["name"]: v["median_s"] * 1e3 for v in case["variants"] if v["status"] == "ok"}
            rows.setdefault(case["stencil"], {})[tag] = ms
print("| stencil | process | hand loop ms | automatic ms | automatic / loop | generic / loop | DoubleBuffer / loop |")
print("|---|---|---|---|---|---|---|")
for stencil, by_tag in rows.items():
    for tag in order:
        ms = by_tag[tag]
        loop = ms["openmp-simd-loop"]
        ratio = lambda k: loop / ms[k]
        print(f"| {stencil} | {tag} | {loop:.0f} | {ms['parallel_stencil:automatic']:.0f} | "
              f"{ratio('parallel_stencil:automatic'):.2f}x | {ratio('parallel_stencil:generic'):.2f}x | "
              f"{ratio('parallel_stencil:double-buffer'):.2f}x |")
