#ifndef EBISU_BENCH_VARIANT_HPP
#define EBISU_BENCH_VARIANT_HPP

// A timed variant, type-erased: how to restore the input (untimed), how to run
// T steps (timed), and where the result is afterwards.

#include "results.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace ebisu_bench {

struct Variant {
  std::string name;
  std::string family;
  std::vector<Param> params;
  std::function<void()> reset;              ///< untimed: put the saved input where run() reads it
  std::function<void()> run;                ///< timed: the T steps
  std::function<const void*()> output;      ///< device pointer to the result after run()
  std::function<std::vector<Param>()> after_run;  ///< optional: parameters known only after a run
  std::string skip_reason;                  ///< non-empty: not run, listed as skipped with this reason
};

inline Param text_param(const std::string& key, const std::string& value) { return {key, value, false}; }
inline Param number_param(const std::string& key, double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", value);
  return {key, buf, true};
}

template <class Scalar, int Rank>
struct DataType;
template <class Scalar>
struct DataType<Scalar, 1> { using type = Scalar*; };
template <class Scalar>
struct DataType<Scalar, 2> { using type = Scalar**; };
template <class Scalar>
struct DataType<Scalar, 3> { using type = Scalar***; };

/// The View every variant works on: the default execution space's natural
/// layout (LayoutLeft on CUDA: index 0 fastest; LayoutRight on the host).
template <class Scalar, int Rank>
using DomainView = Kokkos::View<typename DataType<Scalar, Rank>::type, Kokkos::DefaultExecutionSpace::array_layout,
                                Kokkos::DefaultExecutionSpace::memory_space>;

template <class View>
View make_view(const std::string& label, const long (&e)[3]) {
  const auto alloc = Kokkos::view_alloc(Kokkos::WithoutInitializing, label);
  if constexpr (View::rank == 1) {
    return View(alloc, e[0]);
  } else if constexpr (View::rank == 2) {
    return View(alloc, e[0], e[1]);
  } else {
    return View(alloc, e[0], e[1], e[2]);
  }
}

}  // namespace ebisu_bench

#endif
