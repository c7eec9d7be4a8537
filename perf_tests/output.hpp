#ifndef EBISU_BENCH_OUTPUT_HPP
#define EBISU_BENCH_OUTPUT_HPP

// Human-readable table (stdout) and JSON file of a run.

#include "results.hpp"

#include <string>
#include <vector>

namespace ebisu_bench {

void print_table(const RunInfo& info, const std::vector<CaseResult>& cases);

/// Writes valid JSON by hand (no dependency); false if the file cannot be written.
bool write_json(const std::string& path, const RunInfo& info, const std::vector<CaseResult>& cases);

}  // namespace ebisu_bench

#endif
