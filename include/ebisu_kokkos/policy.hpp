#ifndef EBISU_KOKKOS_POLICY_HPP
#define EBISU_KOKKOS_POLICY_HPP

// The execution policy of parallel_stencil: where to run, how many steps, and
// optional tuning knobs that override the performance model.

#include <Kokkos_Core.hpp>

#include <string>

namespace EbisuKokkos {

enum class Backend {
  automatic,  ///< the fastest available backend for this space, rank, scalar and layout
  generic,    ///< plain Kokkos, one dispatch per time step (every execution space)
  ebisu       ///< temporal blocking forced: the EBISU kernels on Kokkos::Cuda, the blocked host path on host
              ///< spaces (rank 2 and 3); an error where unavailable (e.g. 1-D)
};

inline const char* to_string(Backend b) {
  switch (b) {
    case Backend::automatic: return "automatic";
    case Backend::generic: return "generic";
    case Backend::ebisu: return "ebisu";
  }
  return "?";
}

/// How the EBISU backend organises a run (Backend::ebisu / automatic on CUDA).
enum class Strategy {
  automatic,      ///< the performance model picks (and may route to the generic path)
  sm_tiling,      ///< one launch per `depth` steps; each block streams a strip through its SM (large domains)
  device_tiling   ///< one persistent cooperative launch; the domain stays on chip, blocks exchange halos
                  ///< through L2 every `depth` steps (small and medium domains)
};

inline const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::automatic: return "automatic";
    case Strategy::sm_tiling: return "sm-tiling";
    case Strategy::device_tiling: return "device-tiling";
  }
  return "?";
}

/// Tuning knobs; 0 means "let the model choose".
struct TuningKnobs {
  int temporal_depth = 0;  ///< time steps fused per launch (EBISU backend)
  int tile_width = 0;      ///< cells along the fastest axis per thread-block tile (EBISU backend)
  int tile_height = 0;     ///< cells along the middle axis per thread-block tile (3-D EBISU backend)
  int threads = 0;         ///< threads per block (EBISU backend)
  bool print_plan = false; ///< print the chosen plan and its predicted GCells/s to stdout
  Strategy strategy = Strategy::automatic;  ///< EBISU strategy (forcing one that cannot run falls back, saying why)
};

template <class ExecSpace = Kokkos::DefaultExecutionSpace>
class StencilPolicy {
 public:
  using execution_space = ExecSpace;

  explicit StencilPolicy(int steps) : m_space(), m_steps(steps) {}
  StencilPolicy(const ExecSpace& space, int steps) : m_space(space), m_steps(steps) {}

  const ExecSpace& space() const { return m_space; }
  int steps() const { return m_steps; }
  Backend backend() const { return m_backend; }
  const TuningKnobs& knobs() const { return m_knobs; }

  StencilPolicy& set_backend(Backend b) { m_backend = b; return *this; }
  StencilPolicy& set_temporal_depth(int t) { m_knobs.temporal_depth = t; return *this; }
  StencilPolicy& set_tile_width(int w) { m_knobs.tile_width = w; return *this; }
  StencilPolicy& set_tile_height(int h) { m_knobs.tile_height = h; return *this; }
  StencilPolicy& set_threads(int n) { m_knobs.threads = n; return *this; }
  StencilPolicy& set_print_plan(bool p) { m_knobs.print_plan = p; return *this; }
  StencilPolicy& set_strategy(Strategy s) { m_knobs.strategy = s; return *this; }

 private:
  ExecSpace m_space;
  int m_steps;
  Backend m_backend = Backend::automatic;
  TuningKnobs m_knobs;
};

/// What a parallel_stencil call did: the backend that ran and, for EBISU,
/// the plan the model chose.
struct StencilReport {
  Backend backend = Backend::generic;
  int temporal_depth = 1;  ///< steps per launch
  int launches = 0;        ///< kernel launches for the stencil steps
  double predicted_gcells_per_s = 0;  ///< model prediction (EBISU backend), 0 if none
  Strategy strategy = Strategy::automatic;  ///< the EBISU strategy that ran (automatic: none, generic path)
  std::string plan;        ///< human-readable plan
};

}  // namespace EbisuKokkos

#endif
