#ifndef EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_HOST_HPP
#define EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_HOST_HPP

// The plan of the host temporal-blocking backend (impl/host/ebisu_host.hpp).
//
// A work item is one tile of the (middle x fast) cross-section, widened by a
// halo of H = depth x radius on each side, over one run of the slow axis. Its
// thread streams the run row by row (plane by plane in 3-D) through `depth`
// pipelined stages, each keeping the last 2R+1 rows of its step in a ring, so
// every input cell is read from memory once and every output cell written once
// per `depth` steps; the rings must stay in the core's L2. Redundant work: the
// halo columns (H on each side of the tile) and the pipeline fill at each end
// of a run (H rows). Periodic and mirror sides widen the tiles that reach them
// (wrap-around halos of H cells, mirror ghosts of R cells): `edges`.
// Read-only fields (constant in time) add one ring each of (depth+1) R + 1
// rows: read from memory once per launch like the state, kept in L2 with it.
// Several state fields or time levels (state.hpp) multiply the state's rings:
// each field keeps its input levels and its stages' outputs, (levels + 1) R + 1
// rows each (a stage reads older levels from earlier stages' rings).
// The machine's cache sizes and thread count are read at run time. Pure C++.

#include <ebisu_kokkos/impl/performance_model.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <string>

namespace EbisuKokkos {
namespace Impl {

struct HostMachine {
  int threads = 1;
  long l1_bytes = 48 * 1024;        ///< per core, data
  long l2_bytes = 1024 * 1024;      ///< per core
  long l3_bytes = 32 * 1024 * 1024; ///< shared
};

/// Cache sizes of this machine (sysconf, then /sys, then typical values) and
/// the given thread count.
HostMachine host_machine(int threads);

struct PlanHost {
  bool blocked = false;      ///< false: the plain per-step path is expected to be as fast
  /// The rules of thumb alone decided (redundancy, not a hard limit): Backend::automatic may
  /// time this plan against the plain path once (Selection::automatic / measured).
  bool worth_timing = false;
  std::string reason;        ///< why (blocked or not)
  int depth = 1;
  int tile[3] = {1, 1, 1};   ///< owned cells of a work item along (slow run, middle, fast)
  int items = 0;
  int items_per_axis[3] = {1, 1, 1};
  long ring_bytes = 0;       ///< per work item (per thread), the field rings included
  int field_rings = 0;       ///< one per read-only field (a field tile in 1-D)
  int state_fields = 1;      ///< state fields updated together (state.hpp)
  int state_levels = 1;      ///< time levels of each
  double bytes_per_update = 0;        ///< memory traffic per owned cell update, blocked (state + fields)
  double plain_bytes_per_update = 0;  ///< the same for the plain per-step path
  double redundancy = 1;     ///< computed / owned cell updates
  double loaded_per_owned = 1;  ///< cells a work item reads from memory per owned cell, per launch
  std::string boundaries;    ///< periodic / mirror sides in the plan's words (empty: a fixed frame)
  std::string describe() const;
};

/// n in kernel axis order (slow, middle, fast; middle = 1 in 2-D).
/// forced: Backend::ebisu (plan a blocked run even where the plain path is expected to win).
/// edges: the boundary rules in kernel axis order (a tile reaching a periodic side loads H
/// wrap-around cells beyond it, one reaching a mirror side R ghost cells).
/// fields: read-only fields of the call (each one more ring in L2 and one more read per update).
/// state_fields, state_levels: the state's fields and time levels (each level one more ring set
/// and one more read per update, each field one more write).
PlanHost choose_plan_host(const HostMachine& m, const StencilModel& s, const long (&n)[3], int steps,
                          const TuningKnobs& knobs, bool forced, const BoundaryRules& edges = BoundaryRules{},
                          int fields = 0, int state_fields = 1, int state_levels = 1);

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
