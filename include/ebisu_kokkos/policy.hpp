#ifndef EBISU_KOKKOS_POLICY_HPP
#define EBISU_KOKKOS_POLICY_HPP

// The execution policy of parallel_stencil: where to run, how many steps, and
// optional tuning knobs that override the performance model.

#include <ebisu_kokkos/impl/kept_response.hpp>

#include <Kokkos_Core.hpp>

#include <memory>
#include <stdexcept>
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
  device_tiling,  ///< one persistent cooperative launch; the domain stays on chip, blocks exchange halos
                  ///< through L2 every `depth` steps (small and medium domains)
  in_place_tiling  ///< one persistent cooperative launch; one copy of the domain stays on chip, each thread
                   ///< updates its column in registers, blocks exchange halos through L2 every step
                   ///< (3-D domains of up to ~2 M cells, one field)
};

inline const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::automatic: return "automatic";
    case Strategy::sm_tiling: return "sm-tiling";
    case Strategy::device_tiling: return "device-tiling";
    case Strategy::in_place_tiling: return "in-place-tiling";
  }
  return "?";
}

/// How the generic path's GPU step maps interior cells to work items (host
/// spaces sweep whole rows; 1-D steps are always one range). Which form is
/// fastest depends on the stencil and on whether the domain lives in L2.
enum class GenericStep {
  automatic,     ///< tiled; tiled_4cells once the domain has over twice the GPU's threads
  tiled,         ///< an MDRange of 32 x 4 tiles along the two fastest indices, one cell per work item
  tiled_4cells,  ///< the same, each work item updating 4 cells along the slowest index
  flat           ///< a RangePolicy over the interior, one cell per work item (the fewest instructions per cell)
};

/// How Backend::automatic picks among the plans that can run (CUDA: SM tiling at
/// the model's depth and, where the depth is not forced, one usable depth
/// deeper; device tiling; the generic path's step forms).
enum class Selection {
  automatic,  ///< the performance model; where its two best predictions are close, the candidates are timed
              ///< once on a copy of the caller's data and the fastest is cached for the process
  model,      ///< the performance model only (no timing runs, no extra allocation)
  measured    ///< always time the candidates (once per problem and process)
};

inline const char* to_string(Selection s) {
  switch (s) {
    case Selection::automatic: return "automatic";
    case Selection::model: return "model";
    case Selection::measured: return "measured";
  }
  return "?";
}

/// How the EBISU CUDA SM-tiling kernels (2-D and 3-D) run a linear stencil
/// plus a source term (with_source): u' = L u + f is affine, so G steps give
/// u_{t+G} = L^G u_t + g_G with g_G the source's G-step response from a zero
/// state (boundary rules included). The response form computes g_{nd} (n
/// launches of the source kernel from zero, into one more field of device
/// memory) and then runs L's own kernel, adding g_{nd} to the output of every
/// n-th launch: the source costs one read per n launches instead of f at every
/// step. n (set_response_interval) trades that set-up against the additions.
/// The policy keeps g_{nd} for its next call (release_kept_memory): a call with
/// the same stencil, extents, boundary rules and field values (checked by a
/// 64-bit hash of the fields at each call) adds it without the set-up, which is
/// what makes the form pay in loops of short calls. In a long loop the model
/// may fold the whole call into one response (response_over_whole_call: every
/// launch source-free, the last adding g_T), built once for calls of one step
/// count. Results differ from the per-step form by rounding only. Elsewhere
/// (other strategies, other backends) f is added at every step.
enum class SourceForm {
  automatic,  ///< the response form where it is predicted cheaper: in one call from 12 launches of the main depth
              ///< on; from the second call of a loop with the same fields where the policy keeps it
  per_step,   ///< f added at every step (no memory beyond scratch, no hash of the fields)
  response    ///< the response form wherever launches of the call's main depth run
};

/// set_response_interval's value for one response of all a call's launches (those of other depths than the
/// main one included): every launch runs the source-free kernel and the last adds g_T. The policy builds
/// it once for calls of one step count (SourceForm::automatic chooses it where a loop repays the build).
constexpr int response_over_whole_call = -1;

inline const char* to_string(SourceForm f) {
  switch (f) {
    case SourceForm::automatic: return "automatic";
    case SourceForm::per_step: return "per-step";
    case SourceForm::response: return "response";
  }
  return "?";
}

/// What a side of the domain does (per View index and side; see StencilPolicy::set_boundary).
enum class Boundary {
  fixed,     ///< the `radius` cells at this side are fixed values (Dirichlet): never updated (default)
  periodic,  ///< reads beyond this side wrap around to the other side (set on both sides of an axis)
  mirror     ///< zero flux (Neumann): reads beyond the edge mirror the cells inside it (cell -1 reads cell 0)
};

inline const char* to_string(Boundary b) {
  switch (b) {
    case Boundary::fixed: return "fixed";
    case Boundary::periodic: return "periodic";
    case Boundary::mirror: return "mirror";
  }
  return "?";
}

enum class Side { low, high };

/// The boundary rule of each side of each View index. With a fixed side the
/// cells within `radius` of it keep their values; with a periodic or mirror
/// side every cell up to the edge is updated.
struct BoundaryRules {
  Boundary side[3][2] = {{Boundary::fixed, Boundary::fixed},
                         {Boundary::fixed, Boundary::fixed},
                         {Boundary::fixed, Boundary::fixed}};
  bool all_fixed() const {
    for (const auto& axis : side)
      for (Boundary b : axis)
        if (b != Boundary::fixed) return false;
    return true;
  }
};

/// Tuning knobs; 0 means "let the model choose".
struct TuningKnobs {
  int temporal_depth = 0;  ///< time steps fused per launch (EBISU backend)
  int tile_width = 0;      ///< cells along the fastest axis per thread-block tile (EBISU backend)
  int tile_height = 0;     ///< cells along the middle axis per thread-block tile (3-D EBISU backend)
  int threads = 0;         ///< threads per block (EBISU backend)
  bool print_plan = false; ///< print the chosen plan and its predicted GCells/s to stdout
  Strategy strategy = Strategy::automatic;  ///< EBISU strategy (forcing one that cannot run falls back, saying why)
  Selection selection = Selection::automatic;  ///< how Strategy::automatic decides between candidate plans
  GenericStep generic_step = GenericStep::automatic;  ///< the generic path's GPU step form
  SourceForm source_form = SourceForm::automatic;  ///< how CUDA SM tiling runs with_source stencils
  int response_interval = 0;  ///< SourceForm::response: launches of the main depth per addition of the response
};

namespace Impl {
struct PolicyAccess;
}

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
  /// The same policy (space, backend, knobs, boundaries) for another number of steps.
  StencilPolicy with_steps(int steps) const {
    StencilPolicy p = *this;
    p.m_steps = steps;
    return p;
  }

  StencilPolicy& set_backend(Backend b) { m_backend = b; return *this; }
  StencilPolicy& set_temporal_depth(int t) { m_knobs.temporal_depth = t; return *this; }
  StencilPolicy& set_tile_width(int w) { m_knobs.tile_width = w; return *this; }
  StencilPolicy& set_tile_height(int h) { m_knobs.tile_height = h; return *this; }
  StencilPolicy& set_threads(int n) { m_knobs.threads = n; return *this; }
  StencilPolicy& set_print_plan(bool p) { m_knobs.print_plan = p; return *this; }
  StencilPolicy& set_strategy(Strategy s) { m_knobs.strategy = s; return *this; }
  StencilPolicy& set_selection(Selection s) { m_knobs.selection = s; return *this; }
  StencilPolicy& set_generic_step(GenericStep s) { m_knobs.generic_step = s; return *this; }
  StencilPolicy& set_source_form(SourceForm f) { m_knobs.source_form = f; return *this; }
  /// SourceForm::response: the response of n launches is added once every n launches (the others run
  /// the source-free kernel alone); 0 lets the model choose; response_over_whole_call: one response of
  /// all the call's launches, added by its last (for loops of calls of one step count).
  StencilPolicy& set_response_interval(int launches) {
    if (launches < 0 && launches != response_over_whole_call) {
      throw std::invalid_argument("EbisuKokkos::StencilPolicy::set_response_interval: " + std::to_string(launches) +
                                  " launches is negative (and not response_over_whole_call)");
    }
    m_knobs.response_interval = launches;
    return *this;
  }
  /// Cells each tiled GPU work item of the generic path updates along the slowest index: 1 (GenericStep::tiled),
  /// 4 (GenericStep::tiled_4cells), or 0 (GenericStep::automatic).
  StencilPolicy& set_generic_cells_per_item(int cells) {
    if (cells != 0 && cells != 1 && cells != 4) {
      throw std::invalid_argument("EbisuKokkos::StencilPolicy::set_generic_cells_per_item: " + std::to_string(cells) +
                                  " is not 0, 1 or 4");
    }
    m_knobs.generic_step = cells == 0 ? GenericStep::automatic : cells == 1 ? GenericStep::tiled : GenericStep::tiled_4cells;
    return *this;
  }

  /// Boundary rule of both sides of View index `axis` (0, 1, 2).
  StencilPolicy& set_boundary(int axis, Boundary b) { return set_boundary(axis, Side::low, b).set_boundary(axis, Side::high, b); }
  /// Boundary rule of one side of View index `axis`; periodic must be set on both sides (checked when run).
  StencilPolicy& set_boundary(int axis, Side side, Boundary b) {
    if (axis < 0 || axis > 2) throw std::invalid_argument("EbisuKokkos::StencilPolicy::set_boundary: axis " +
                                                          std::to_string(axis) + " is not 0, 1 or 2");
    m_boundaries.side[axis][side == Side::low ? 0 : 1] = b;
    return *this;
  }
  const BoundaryRules& boundaries() const { return m_boundaries; }

  /// Frees the device memory the policy keeps between calls: the source's response (SourceForm::response),
  /// which a policy and its copies keep after a call that built it, so that the next call with the same
  /// stencil, extents and field values adds it without computing it again. A later call builds it again
  /// where that pays. SourceForm::per_step never allocates it.
  void release_kept_memory() const { m_kept->release(); }

 private:
  ExecSpace m_space;
  int m_steps;
  Backend m_backend = Backend::automatic;
  TuningKnobs m_knobs;
  BoundaryRules m_boundaries;
  // Set by the call forms that take step T in either buffer (Impl::PolicyAccess), never by users.
  bool m_result_in_either_buffer = false;
  // Shared by copies (with_steps, the call forms' internal copies): one time loop's calls find it.
  std::shared_ptr<Impl::KeptResponse> m_kept = std::make_shared<Impl::KeptResponse>();
  friend struct Impl::PolicyAccess;
};

namespace Impl {
/// The part of a policy the call form sets. The DoubleBuffer and State forms
/// take step T in either buffer (the selector flips), so a plan whose last
/// launch writes the scratch buffer owes them no copy back; the (u, scratch)
/// form copies it into u, a pass over the field the plans weigh against
/// splitting the steps into an even number of launches.
struct PolicyAccess {
  template <class ExecSpace>
  static StencilPolicy<ExecSpace> result_in_either_buffer(StencilPolicy<ExecSpace> policy) {
    policy.m_result_in_either_buffer = true;
    return policy;
  }
  template <class ExecSpace>
  static bool copy_back_free(const StencilPolicy<ExecSpace>& policy) {
    return policy.m_result_in_either_buffer;
  }
  template <class ExecSpace>
  static KeptResponse& kept_response(const StencilPolicy<ExecSpace>& policy) {
    return *policy.m_kept;
  }
};
}  // namespace Impl

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
