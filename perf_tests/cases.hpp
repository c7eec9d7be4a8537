#ifndef EBISU_BENCH_CASES_HPP
#define EBISU_BENCH_CASES_HPP

// What main.cpp calls: the preset cases of one rank and precision. Their
// definition (bench_case.hpp) is instantiated once per rank and precision in
// cases_*.cpp; a caller that saw it would compile all six again.

#include "cli.hpp"
#include "results.hpp"

#include <vector>

namespace ebisu_bench {

/// Runs every selected stencil of this rank.
template <int Rank, class Scalar>
void run_cases(const Options& options, const RunInfo& info, std::vector<CaseResult>& results);

}  // namespace ebisu_bench

#endif
