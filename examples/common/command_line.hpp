#ifndef EBISU_EXAMPLES_COMMAND_LINE_HPP
#define EBISU_EXAMPLES_COMMAND_LINE_HPP

// The examples' shared command line: "--name value" options, --backend,
// --help, and Kokkos' own --kokkos-... options left for Kokkos::initialize.

#include <ebisu_kokkos/policy.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>

namespace ebisu_examples {

/// Reads the value after the current option (throws when there is none).
using OptionValue = std::function<std::string()>;

/// auto | generic | ebisu.
inline EbisuKokkos::Backend parse_backend(const std::string& b) {
  if (b == "auto") return EbisuKokkos::Backend::automatic;
  if (b == "generic") return EbisuKokkos::Backend::generic;
  if (b == "ebisu") return EbisuKokkos::Backend::ebisu;
  throw std::invalid_argument("--backend takes auto, generic or ebisu, not " + b);
}

/// Calls on_option(name, value) for every option; it returns false for a name
/// it does not know. --help prints `usage` and exits; --kokkos-* is skipped.
template <class OnOption>
void parse_command_line(int argc, char** argv, const char* usage, OnOption&& on_option) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const OptionValue value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("missing value after " + a);
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::puts(usage);
      std::exit(0);
    }
    if (a.rfind("--kokkos", 0) == 0) continue;
    if (!on_option(a, value)) throw std::invalid_argument("unknown option " + a + "\nusage: " + usage);
  }
}

/// The options of a diffusion run (heat2d, heat3d): the domain's cells per
/// side, the steps, how many progress reports, the figure and the backend.
struct RunOptions {
  int size = 0;
  int steps = 0;
  int reports = 1;
  std::string output;
  EbisuKokkos::Backend backend = EbisuKokkos::Backend::automatic;
};

/// --size N --steps T --reports K --output file.png --backend auto|generic|ebisu
/// over `defaults`, validated.
inline RunOptions parse_run_options(int argc, char** argv, const std::string& program, RunOptions o) {
  const std::string usage =
      program + " [--size N] [--steps T] [--reports K] [--output file.png] [--backend auto|generic|ebisu]";
  parse_command_line(argc, argv, usage.c_str(), [&](const std::string& a, const OptionValue& value) {
    if (a == "--size") o.size = std::stoi(value());
    else if (a == "--steps") o.steps = std::stoi(value());
    else if (a == "--reports") o.reports = std::stoi(value());
    else if (a == "--output") o.output = value();
    else if (a == "--backend") o.backend = parse_backend(value());
    else return false;
    return true;
  });
  if (o.size < 3 || o.steps < 0 || o.reports < 1) throw std::invalid_argument("need --size >= 3, --steps >= 0, --reports >= 1");
  return o;
}

}  // namespace ebisu_examples

#endif
