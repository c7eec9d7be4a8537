#ifndef EBISU_BENCH_STATE_CASES_HPP
#define EBISU_BENCH_STATE_CASES_HPP

// Stencils over several state fields or time levels (--state-cases), each
// next to plain Kokkos written for the same physics in the same process:
//  - wave1d / wave2d / wave3d: the leapfrog wave u^{n+1} = 2u^n - u^{n-1} + r2 L u^n
//    (3- / 5- / 7-point Laplacian): one field, two time levels, three buffers
//    turned as a ring (24 B of memory traffic per cell update);
//  - gray-scott1d / gray-scott2d: Gray-Scott reaction-diffusion, two coupled
//    fields, two buffers each (32 B per cell update).
// Plain variants: MDRangePolicy (default tiling and a few tiles; 2-D and 3-D)
// and a flat RangePolicy, rotating their buffers like a hand-written loop; EbisuKokkos:
// parallel_stencil on a TimeLevels / CoupledFields state, generic, automatic
// and the EBISU kernels forced. Every variant's last field (u^T, or v^T) is checked against the
// first plain variant's. The per-step bound of these rows is the copy
// bandwidth over their bytes per cell update, not the single-field one.

#include "cli.hpp"
#include "results.hpp"

#include <string>
#include <vector>

namespace ebisu_bench {

/// The state case names --state-cases accepts.
const std::vector<std::string>& state_case_names();

/// Runs the selected state cases (double; float says it skips them).
template <class Scalar>
void run_state_cases(const Options& options, const RunInfo& info, std::vector<CaseResult>& results);

}  // namespace ebisu_bench

#endif
