// 1-D stencils in double (one translation unit per rank and precision keeps builds parallel).

#include "bench_case.hpp"

template void ebisu_bench::run_cases<1, double>(const Options&, const RunInfo&, std::vector<CaseResult>&);
