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

}  // namespace ebisu_examples

#endif
