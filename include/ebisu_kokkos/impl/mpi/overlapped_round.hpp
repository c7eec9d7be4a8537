#ifndef EBISU_KOKKOS_IMPL_MPI_OVERLAPPED_ROUND_HPP
#define EBISU_KOKKOS_IMPL_MPI_OVERLAPPED_ROUND_HPP

// A round of the distributed parallel_stencil whose halo exchange runs while
// the block computes (domains split along one axis).
//
// Without overlap a round is: exchange the ghost zones (g = radius x k cells
// deep), then k steps on the local View. With it:
//  1. each side that faces a rank packs its send slab (its owned cells within g
//     of the side) and copies its *strip* - the local View's 3g cells next to
//     the side (g ghost cells, 2g owned) - into a separate strip state; the
//     messages go out;
//  2. k steps run on the whole local View while the messages travel. Its ghost
//     cells are stale, which spoils the owned cells within g of the side and
//     no others (each step spreads the error by one radius);
//  3. the received ghost cells go into the strips, k steps run on each strip
//     (a fixed frame on both ends of the split axis), and each strip's cells g
//     to 2g from its outer end - the owned cells the local run spoiled, now at
//     least g from both of the strip's frames - are copied over them.
// Every cell is then what the exchange-then-compute round computes: the same
// evaluator on the same operands. The price is the strips' 3g cells per side
// of recomputation (the local run's g ghost cells are computed either way),
// which is why it is measured before it is kept (parallel_stencil.hpp).
// Steps run asynchronously to the host only where the execution space does
// (GPUs): there the host waits on MPI while the device computes.

#include <ebisu_kokkos/fields.hpp>
#include <ebisu_kokkos/impl/mpi/halo_exchange.hpp>
#include <ebisu_kokkos/mpi/cartesian_domain.hpp>
#include <ebisu_kokkos/mpi/transfer.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace EbisuKokkos {
namespace Mpi {
namespace Impl {

/// The axis whose sides face other ranks when exactly one does, -1 otherwise.
template <int Rank>
int single_exchanged_axis(const CartesianDomain<Rank>& domain) {
  int axis = -1;
  for (int a = 0; a < Rank; ++a) {
    if (!faces_neighbour_on(domain, a, 0) && !faces_neighbour_on(domain, a, 1)) continue;
    if (axis >= 0) return -1;
    axis = a;
  }
  return axis;
}

/// Why a round on `domain` cannot overlap its exchange ("" when it can).
template <int Rank>
std::string overlap_refusal(const CartesianDomain<Rank>& domain) {
  if (!domain.has_neighbours()) return "no neighbours";
  const int axis = single_exchanged_axis(domain);
  if (axis < 0) return "the decomposition splits several axes (overlap takes one split axis)";
  if (domain.owned_extent(axis) < 2 * domain.ghost_width()) {
    return "the block (" + std::to_string(domain.owned_extent(axis)) + " cells) is thinner than two ghost zones";
  }
  return "";
}

/// Where one side's strip sits (local indices of the local View unless named).
struct StripGeometry {
  Box strip;             ///< the 3g cells next to the side, all of the other axes
  Box send;              ///< the owned cells the neighbour mirrors
  Box ghost_in_strip;    ///< where the received ghost cells go
  Box owned_in_strip;    ///< the strip's 2g owned cells (copied in from the local View)
  Box owned_in_local;    ///< the same cells in the local View
  Box result_in_strip;   ///< the cells g .. 2g from the strip's outer end
  Box result_in_local;   ///< the same cells in the local View
};

template <int Rank>
StripGeometry strip_geometry(const CartesianDomain<Rank>& domain, int axis, int s) {
  const std::int64_t g = domain.ghost_width(), n = domain.local_extent(axis);
  StripGeometry geometry;
  Box whole;
  for (int a = 0; a < Rank; ++a) whole.extent[a] = domain.local_extent(a);
  geometry.strip = geometry.ghost_in_strip = geometry.owned_in_strip = geometry.owned_in_local =
      geometry.result_in_strip = geometry.result_in_local = whole;
  for (Box* b : {&geometry.strip, &geometry.ghost_in_strip, &geometry.result_in_strip, &geometry.result_in_local}) {
    b->extent[axis] = g;
  }
  geometry.strip.extent[axis] = 3 * g;
  geometry.strip.begin[axis] = s == 0 ? 0 : n - 3 * g;
  geometry.ghost_in_strip.begin[axis] = s == 0 ? 0 : 2 * g;
  geometry.owned_in_strip.extent[axis] = geometry.owned_in_local.extent[axis] = 2 * g;
  geometry.owned_in_strip.begin[axis] = s == 0 ? g : 0;
  geometry.owned_in_local.begin[axis] = geometry.strip.begin[axis] + geometry.owned_in_strip.begin[axis];
  geometry.result_in_strip.begin[axis] = g;
  geometry.result_in_local.begin[axis] = geometry.strip.begin[axis] + g;
  geometry.send = halo_slab(domain, axis, s, false);
  return geometry;
}

/// A read-only field argument's cells in `box`, as a contiguous copy of the same kind.
template <class ExecSpace, class F>
auto strip_field_argument(const ExecSpace& space, const F& argument, const Box& box) {
  using Argument = EbisuKokkos::Impl::FieldArgument<F>;
  using Copy = ContiguousView<typename Argument::view_type>;
  const Copy copy = allocate_box<Copy>("EbisuKokkos::Mpi::strip_field", box);
  Kokkos::deep_copy(space, copy, box_of(Argument::view(argument), box));
  if constexpr (std::is_same_v<typename Argument::kind, EbisuKokkos::Impl::CentreField>) {
    return EbisuKokkos::centre_only(copy);
  } else {
    return copy;
  }
}

template <class ExecSpace, class... Fs>
auto strip_fields(const ExecSpace& space, const Fields<Fs...>& f, const Box& box) {
  return std::apply([&](const Fs&... x) { return EbisuKokkos::fields(strip_field_argument(space, x, box)...); },
                    f.arguments());
}

/// The strips of one call form and the messages in flight. `Strip` is the
/// strip state (the call form's state over contiguous strip Views), `View`
/// the local state's View type; a state is seen as its list of levels (the
/// Views a round must carry: a DoubleBuffer's current View, every level of
/// every field of a State).
template <int Rank, class Strip, class View>
class StripRounds {
 public:
  using Buffer = ContiguousView<View>;

  template <class MakeStrip>
  StripRounds(const CartesianDomain<Rank>& domain, int levels, const MakeStrip& make_strip)
      : m_axis(single_exchanged_axis(domain)) {
    const bool device_aware = mpi_is_device_aware();
    for (int s = 0; s < 2; ++s) {
      if (!faces_neighbour_on(domain, m_axis, s)) continue;
      m_geometry[s] = strip_geometry(domain, m_axis, s);
      m_strip[s].emplace(make_strip(m_geometry[s].strip));
      for (int j = 0; j < levels; ++j) {
        m_send[s].emplace_back(allocate_box<Buffer>("EbisuKokkos::Mpi::overlap_out", m_geometry[s].send),
                               device_aware);
        m_receive[s].emplace_back(allocate_box<Buffer>("EbisuKokkos::Mpi::overlap_in", m_geometry[s].send),
                                  device_aware);
      }
    }
  }

  int axis() const { return m_axis; }
  Strip* strip(int s) { return m_strip[s] ? &*m_strip[s] : nullptr; }
  const StripGeometry& geometry(int s) const { return m_geometry[s]; }

  /// One round. levels_of(state) -> std::vector of its level Views (local or
  /// strip); run_local() runs the local View's steps, run_strip(s) side s's.
  template <class ExecSpace, class LocalState, class LevelsOf, class RunLocal, class RunStrip>
  StencilReport round(const CartesianDomain<Rank>& domain, const ExecSpace& space, LocalState& local,
                      const LevelsOf& levels_of, const RunLocal& run_local, const RunStrip& run_strip) {
    using Scalar = typename View::non_const_value_type;
    const MPI_Comm comm = domain.communicator();
    std::vector<MPI_Request> requests;
    const auto neighbour = [&](int s) { return domain.neighbour(m_axis, s == 0 ? Side::low : Side::high); };
    // Tags above the exchange's (2 x axis + side < 6): level j, towards side s.
    const auto tag = [&](int j, int s) { return 8 + 8 * j + 2 * m_axis + s; };
    const auto local_levels = levels_of(local);
    const int levels = static_cast<int>(local_levels.size());
    for (int s = 0; s < 2; ++s) {
      if (!m_strip[s]) continue;
      for (int j = 0; j < levels; ++j) {
        requests.emplace_back();
        check_mpi(MPI_Irecv(m_receive[s][j].data(), m_receive[s][j].count(), mpi_type<Scalar>(), neighbour(s),
                            tag(j, 1 - s), comm, &requests.back()),
                  "MPI_Irecv (overlapped halo)");
      }
    }
    for (int s = 0; s < 2; ++s) {
      if (!m_strip[s]) continue;
      const auto strip_levels = levels_of(*m_strip[s]);
      for (int j = 0; j < levels; ++j) {
        pack(space, m_send[s][j].buffer(), local_levels[j], m_geometry[s].send);
        m_send[s][j].to_mpi(space);
        Kokkos::deep_copy(space, box_of(strip_levels[j], m_geometry[s].owned_in_strip),
                          box_of(local_levels[j], m_geometry[s].owned_in_local));
      }
    }
    space.fence();
    for (int s = 0; s < 2; ++s) {
      if (!m_strip[s]) continue;
      for (int j = 0; j < levels; ++j) {
        requests.emplace_back();
        check_mpi(MPI_Isend(m_send[s][j].data(), m_send[s][j].count(), mpi_type<Scalar>(), neighbour(s), tag(j, s),
                            comm, &requests.back()),
                  "MPI_Isend (overlapped halo)");
      }
    }
    const StencilReport report = run_local();  // returns at once where the space runs asynchronously
    check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall (overlapped halo)");
    for (int s = 0; s < 2; ++s) {
      if (!m_strip[s]) continue;
      const auto strip_levels = levels_of(*m_strip[s]);
      for (int j = 0; j < levels; ++j) {
        m_receive[s][j].from_mpi(space);
        unpack(space, strip_levels[j], m_geometry[s].ghost_in_strip, m_receive[s][j].buffer());
      }
    }
    // MPI writes the staging buffers again in the next round: their copies must be done.
    space.fence();
    for (int s = 0; s < 2; ++s)
      if (m_strip[s]) run_strip(s);
    const auto results = levels_of(local);
    for (int s = 0; s < 2; ++s) {
      if (!m_strip[s]) continue;
      const auto strip_levels = levels_of(*m_strip[s]);
      for (int j = 0; j < levels; ++j) {
        Kokkos::deep_copy(space, box_of(results[j], m_geometry[s].result_in_local),
                          box_of(strip_levels[j], m_geometry[s].result_in_strip));
      }
    }
    return report;
  }

 private:
  int m_axis;
  std::array<StripGeometry, 2> m_geometry{};
  std::array<std::optional<Strip>, 2> m_strip;
  std::array<std::vector<MpiBuffer<Buffer>>, 2> m_send, m_receive;
};

}  // namespace Impl
}  // namespace Mpi
}  // namespace EbisuKokkos

#endif
