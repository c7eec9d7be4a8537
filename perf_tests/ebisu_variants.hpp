#ifndef EBISU_BENCH_EBISU_VARIANTS_HPP
#define EBISU_BENCH_EBISU_VARIANTS_HPP

// EbisuKokkos::parallel_stencil with Backend::automatic and Backend::generic.
// The timed region is the whole call (frame copy and, for odd T, the copy
// back into u included): u holds step 0 before and step T after.

#include "variant.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <memory>
#include <string>
#include <vector>

namespace ebisu_bench {

template <class Stencil, class View>
std::vector<Variant> make_ebisu_variants(const Stencil& stencil, const View& input, const View& u,
                                         const View& scratch, int steps) {
  using Space = Kokkos::DefaultExecutionSpace;
  constexpr bool available = EbisuKokkos::ebisu_available<Space, Stencil, View>;
  auto reset = [=]() {
    Kokkos::deep_copy(u, input);
    Kokkos::deep_copy(scratch, input);
  };
  auto output = [=]() -> const void* { return u.data(); };

  std::vector<Variant> variants;
  for (auto backend : {EbisuKokkos::Backend::automatic, EbisuKokkos::Backend::generic}) {
    auto report = std::make_shared<EbisuKokkos::StencilReport>();
    const std::string name = std::string("parallel_stencil:") + EbisuKokkos::to_string(backend);
    auto run = [=]() {
      EbisuKokkos::StencilPolicy<Space> policy(Space(), steps);
      policy.set_backend(backend);
      *report = EbisuKokkos::parallel_stencil("ebisu_bench", policy, stencil, u, scratch);
    };
    auto after_run = [=]() {
      return std::vector<Param>{text_param("backend", EbisuKokkos::to_string(report->backend)),
                                number_param("temporal_depth", report->temporal_depth),
                                number_param("launches", report->launches),
                                number_param("predicted_gcells_per_s", report->predicted_gcells_per_s),
                                text_param("plan", report->plan)};
    };
    variants.push_back(Variant{name, "ebisu-kokkos",
                               {text_param("requested_backend", EbisuKokkos::to_string(backend)),
                                text_param("ebisu_available", available ? "true" : "false")},
                               reset, run, output, after_run});
  }
  return variants;
}

}  // namespace ebisu_bench

#endif
