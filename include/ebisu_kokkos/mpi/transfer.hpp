#ifndef EBISU_KOKKOS_MPI_TRANSFER_HPP
#define EBISU_KOKKOS_MPI_TRANSFER_HPP

// Moving a distributed field's cells between ranks:
//  - exchange_halo(domain, space, v): fills v's ghost zones from the neighbours' owned cells
//    (parallel_stencil does this itself for its state and fields; call it for other uses);
//  - gather(domain, v, root): the global field on one rank (a host View; empty on the others);
//  - scatter(domain, global, v, root): the inverse, into each rank's owned cells.
// All are collective over domain.communicator().

#include <ebisu_kokkos/impl/mpi/halo_exchange.hpp>
#include <ebisu_kokkos/mpi/cartesian_domain.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <climits>
#include <string>
#include <vector>

namespace EbisuKokkos {
namespace Mpi {

/// The global field type gather returns: the local View's data type and layout, on the host.
template <class ViewType>
using GlobalHostView =
    Kokkos::View<typename ViewType::non_const_data_type, typename ViewType::array_layout, Kokkos::HostSpace>;

namespace Impl {

template <int Rank, class ViewType>
void check_local_extents(const CartesianDomain<Rank>& domain, const ViewType& v, const std::string& who) {
  static_assert(EbisuKokkos::Impl::view_rank<ViewType> == Rank,
                "EbisuKokkos::Mpi: the View's rank differs from the domain's");
  for (int a = 0; a < Rank; ++a) {
    if (static_cast<std::int64_t>(v.extent(a)) != domain.local_extent(a)) {
      throw std::invalid_argument("EbisuKokkos::Mpi::" + who + ": the View '" + v.label() + "' has extent " +
                                  std::to_string(v.extent(a)) + " along index " + std::to_string(a) +
                                  " on rank " + std::to_string(domain.rank()) + ", the domain's local extent is " +
                                  std::to_string(domain.local_extent(a)) + " (create it with domain.create_view)");
    }
  }
}

// One message per rank's block: MPI counts are int.
inline void check_message_size(const Box& block, const char* who) {
  if (block.cells() > INT_MAX) {
    throw std::invalid_argument(std::string("EbisuKokkos::Mpi::") + who + ": a rank's block has " +
                                std::to_string(block.cells()) + " cells, more than one MPI message carries (2^31-1)");
  }
}

/// The exchange proper, without checks: along each axis in turn, each side
/// that faces a neighbour sends the neighbour's ghost zone (its own owned cells
/// next to that side) and receives its own. Later axes send their slabs over the
/// whole local extent of the earlier axes, ghosts included, which fills the
/// edge and corner ghosts box stencils and multi-step halos read.
template <int Rank, class ExecSpace, class ViewType>
void exchange_halo_unchecked(const CartesianDomain<Rank>& domain, const ExecSpace& space, const ViewType& v) {
  using Buffer = ContiguousView<ViewType>;
  using Scalar = typename ViewType::non_const_value_type;
  const bool device_aware = mpi_is_device_aware();
  const MPI_Comm comm = domain.communicator();
  for (int a = 0; a < Rank; ++a) {
    if (!domain.faces_neighbour(a, Side::low) && !domain.faces_neighbour(a, Side::high)) continue;
    const std::int64_t g = domain.ghost_width();
    Box slab;
    for (int b = 0; b < Rank; ++b) slab.extent[b] = domain.local_extent(b);
    slab.extent[a] = g;
    const std::int64_t lo = domain.ghost(a, Side::low), owned = domain.owned_extent(a);
    // sides: 0 low, 1 high; what side s sends and where it receives
    Box send[2] = {slab, slab}, receive[2] = {slab, slab};
    send[0].begin[a] = lo;
    send[1].begin[a] = lo + owned - g;
    receive[0].begin[a] = 0;
    receive[1].begin[a] = lo + owned;
    std::vector<MpiBuffer<Buffer>> sends, receives;
    std::vector<MPI_Request> requests;
    std::vector<int> receive_sides;
    for (int s = 0; s < 2; ++s) {
      if (!domain.faces_neighbour(a, s == 0 ? Side::low : Side::high)) continue;
      receives.emplace_back(allocate_box<Buffer>("EbisuKokkos::Mpi::halo_in", receive[s]), device_aware);
      receive_sides.push_back(s);
    }
    requests.reserve(4);
    for (std::size_t i = 0; i < receives.size(); ++i) {
      const int s = receive_sides[i];
      // the neighbour on side s sent towards us, i.e. towards its side 1 - s: tag 2a + (1 - s)
      MPI_Request r;
      check_mpi(MPI_Irecv(receives[i].data(), receives[i].count(), mpi_type<Scalar>(),
                          domain.neighbour(a, s == 0 ? Side::low : Side::high), 2 * a + (1 - s), comm, &r),
                "MPI_Irecv (halo)");
      requests.push_back(r);
    }
    for (int s = 0; s < 2; ++s) {
      if (!domain.faces_neighbour(a, s == 0 ? Side::low : Side::high)) continue;
      sends.emplace_back(allocate_box<Buffer>("EbisuKokkos::Mpi::halo_out", send[s]), device_aware);
      pack(space, sends.back().buffer(), v, send[s]);
    }
    space.fence();
    for (auto& b : sends) b.to_mpi(space);
    space.fence();
    int i = 0;
    for (int s = 0; s < 2; ++s) {
      if (!domain.faces_neighbour(a, s == 0 ? Side::low : Side::high)) continue;
      MPI_Request r;
      check_mpi(MPI_Isend(sends[i].data(), sends[i].count(), mpi_type<Scalar>(),
                          domain.neighbour(a, s == 0 ? Side::low : Side::high), 2 * a + s, comm, &r),
                "MPI_Isend (halo)");
      requests.push_back(r);
      ++i;
    }
    check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall (halo)");
    for (std::size_t k = 0; k < receives.size(); ++k) {
      receives[k].from_mpi(space);
      unpack(space, v, receive[receive_sides[k]], receives[k].buffer());
    }
    space.fence();
  }
}

}  // namespace Impl

/// Fills the ghost zones of `v` (a View of the domain's local extents) from the neighbours' owned cells.
template <int Rank, class ExecSpace, class ViewType>
void exchange_halo(const CartesianDomain<Rank>& domain, const ExecSpace& space, const ViewType& v) {
  Impl::check_local_extents(domain, v, "exchange_halo");
  Impl::exchange_halo_unchecked(domain, space, v);
}

/// The global field on rank `root` (a host View of the global extents); an empty View on every other rank.
template <int Rank, class ViewType>
GlobalHostView<ViewType> gather(const CartesianDomain<Rank>& domain, const ViewType& v, int root = 0) {
  Impl::check_local_extents(domain, v, "gather");
  using Scalar = typename ViewType::non_const_value_type;
  using Buffer = Impl::ContiguousView<ViewType>;
  using Result = GlobalHostView<ViewType>;
  const Impl::Box mine = domain.owned_box();
  Impl::check_message_size(mine, "gather");
  const auto packed = Impl::allocate_box<Buffer>("EbisuKokkos::Mpi::gather_out", mine);
  Kokkos::deep_copy(packed, Impl::box_of(v, mine));
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), packed);
  const MPI_Comm comm = domain.communicator();
  if (domain.rank() != root) {
    Impl::check_mpi(MPI_Send(host.data(), static_cast<int>(host.span()), Impl::mpi_type<Scalar>(), root, 0, comm),
                    "MPI_Send (gather)");
    return EbisuKokkos::Impl::unallocated_view<Result>();
  }
  Impl::Box global;
  for (int a = 0; a < Rank; ++a) global.extent[a] = domain.global_extents()[a];
  const Result result = Impl::allocate_box<Result>("EbisuKokkos::Mpi::gathered", global);
  for (int r = 0; r < domain.size(); ++r) {
    const Impl::Box block = domain.owned_box_of(r);
    using HostBuffer = Kokkos::View<typename ViewType::non_const_data_type, typename ViewType::array_layout,
                                    Kokkos::HostSpace>;
    HostBuffer incoming = Impl::allocate_box<HostBuffer>("EbisuKokkos::Mpi::gather_in", block);
    if (r == root) {
      Kokkos::deep_copy(incoming, host);
    } else {
      Impl::check_mpi(MPI_Recv(incoming.data(), static_cast<int>(incoming.span()), Impl::mpi_type<Scalar>(), r, 0,
                               comm, MPI_STATUS_IGNORE),
                      "MPI_Recv (gather)");
    }
    Kokkos::deep_copy(Impl::box_of(result, block), incoming);
  }
  return result;
}

/// Copies the global field `global` (read on rank `root` only; any host View of the global extents there)
/// into the owned cells of each rank's `v`. Ghost cells are left as they are.
template <int Rank, class GlobalView, class ViewType>
void scatter(const CartesianDomain<Rank>& domain, const GlobalView& global, const ViewType& v, int root = 0) {
  Impl::check_local_extents(domain, v, "scatter");
  using Scalar = typename ViewType::non_const_value_type;
  using HostBuffer =
      Kokkos::View<typename ViewType::non_const_data_type, typename ViewType::array_layout, Kokkos::HostSpace>;
  const MPI_Comm comm = domain.communicator();
  const Impl::Box mine = domain.owned_box();
  Impl::check_message_size(mine, "scatter");
  HostBuffer incoming = Impl::allocate_box<HostBuffer>("EbisuKokkos::Mpi::scatter_in", mine);
  if (domain.rank() == root) {
    for (int a = 0; a < Rank; ++a) {
      if (static_cast<std::int64_t>(global.extent(a)) != domain.global_extents()[a]) {
        throw std::invalid_argument("EbisuKokkos::Mpi::scatter: the global View has extent " +
                                    std::to_string(global.extent(a)) + " along index " + std::to_string(a) +
                                    ", the domain's is " + std::to_string(domain.global_extents()[a]));
      }
    }
    for (int r = 0; r < domain.size(); ++r) {
      const Impl::Box block = domain.owned_box_of(r);
      HostBuffer outgoing = Impl::allocate_box<HostBuffer>("EbisuKokkos::Mpi::scatter_out", block);
      Kokkos::deep_copy(outgoing, Impl::box_of(global, block));
      if (r == root) {
        Kokkos::deep_copy(incoming, outgoing);
      } else {
        Impl::check_mpi(MPI_Send(outgoing.data(), static_cast<int>(outgoing.span()), Impl::mpi_type<Scalar>(), r, 1,
                                 comm),
                        "MPI_Send (scatter)");
      }
    }
  } else {
    Impl::check_mpi(MPI_Recv(incoming.data(), static_cast<int>(incoming.span()), Impl::mpi_type<Scalar>(), root, 1,
                             comm, MPI_STATUS_IGNORE),
                    "MPI_Recv (scatter)");
  }
  using Buffer = Impl::ContiguousView<ViewType>;
  const auto packed = Impl::allocate_box<Buffer>("EbisuKokkos::Mpi::scatter_packed", mine);
  Kokkos::deep_copy(packed, incoming);
  Kokkos::deep_copy(Impl::box_of(v, mine), packed);
}

}  // namespace Mpi
}  // namespace EbisuKokkos

#endif
