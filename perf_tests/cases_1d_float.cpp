// 1-D stencils in float (one translation unit per rank and precision keeps builds parallel).

#include "bench_case.hpp"

template void ebisu_bench::run_cases<1, float>(const Options&, const RunInfo&, std::vector<CaseResult>&);
