#ifndef EBISU_BENCH_FIELD_CASES_HPP
#define EBISU_BENCH_FIELD_CASES_HPP

// Stencils that read read-only fields (--field-cases), each next to plain
// Kokkos written for the same physics in the same process:
//  - heat2d-var / heat3d-var: variable-coefficient heat, u' = u + dt div(k grad u)
//    with a conductivity field k read over the footprint (face conductivities
//    are the means of the two cells);
//  - j2d5pt-source / j3d7pt-source: the j2d5pt / j3d7pt preset plus a source
//    field read at the cell (with_source), to set against the preset's row.
// Plain variants: MDRangePolicy (default tiling and a few tiles, the
// contiguous index first) and a flat RangePolicy; every variant is checked
// against the first plain one, then timed like the preset cases. EbisuKokkos
// variants: the generic path, Backend::ebisu with SM tiling and device
// tiling forced (what ran is recorded), and automatic.

#include "cli.hpp"
#include "results.hpp"

#include <string>
#include <vector>

namespace ebisu_bench {

/// The field case names --field-cases accepts.
const std::vector<std::string>& field_case_names();

/// Runs the selected field cases (double; float says it skips them).
template <class Scalar>
void run_field_cases(const Options& options, const RunInfo& info, std::vector<CaseResult>& results);

}  // namespace ebisu_bench

#endif
