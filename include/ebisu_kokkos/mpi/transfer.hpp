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

// The slab of local cells that side `s` (0 low, 1 high) of `axis` sends (its owned cells the
// neighbour mirrors) or receives (its ghost zone): g cells deep, across the whole local extent of
// the other axes.
template <int Rank>
Box halo_slab(const CartesianDomain<Rank>& domain, int axis, int s, bool receive) {
  const std::int64_t g = domain.ghost_width();
  Box slab;
  for (int b = 0; b < Rank; ++b) slab.extent[b] = domain.local_extent(b);
  slab.extent[axis] = g;
  const std::int64_t lo = domain.ghost(axis, Side::low), owned = domain.owned_extent(axis);
  if (receive) {
    slab.begin[axis] = s == 0 ? 0 : lo + owned;
  } else {
    slab.begin[axis] = s == 0 ? lo : lo + owned - g;
  }
  return slab;
}

template <int Rank>
bool faces_neighbour_on(const CartesianDomain<Rank>& domain, int axis, int s) {
  return domain.faces_neighbour(axis, s == 0 ? Side::low : Side::high);
}

template <class Buffer, int Rank>
HaloBuffers<Buffer> make_halo_buffers(const CartesianDomain<Rank>& domain) {
  HaloBuffers<Buffer> h;
  const bool device_aware = mpi_is_device_aware();
  h.index.assign(2 * Rank, -1);
  for (int a = 0; a < Rank; ++a)
    for (int s = 0; s < 2; ++s) {
      if (!faces_neighbour_on(domain, a, s)) continue;
      h.index[2 * a + s] = static_cast<int>(h.send.size());
      h.send.emplace_back(allocate_box<Buffer>("EbisuKokkos::Mpi::halo_out", halo_slab(domain, a, s, false)),
                          device_aware);
      h.receive.emplace_back(allocate_box<Buffer>("EbisuKokkos::Mpi::halo_in", halo_slab(domain, a, s, true)),
                             device_aware);
    }
  return h;
}

/// The exchange proper, without checks: along each axis in turn, each side
/// that faces a neighbour sends the neighbour's ghost zone (its own owned cells
/// next to that side) and receives its own. Later axes send their slabs over the
/// whole local extent of the earlier axes, ghosts included, which fills the
/// edge and corner ghosts box stencils and multi-step halos read. The buffers
/// are the domain's (made on its first exchange of this View type).
template <int Rank, class ExecSpace, class ViewType>
void exchange_halo_unchecked(const CartesianDomain<Rank>& domain, const ExecSpace& space, const ViewType& v) {
  using Buffer = ContiguousView<ViewType>;
  using Scalar = typename ViewType::non_const_value_type;
  HaloBuffers<Buffer>& buffers =
      domain.halo_cache().template get<HaloBuffers<Buffer>>([&] { return make_halo_buffers<Buffer>(domain); });
  const MPI_Comm comm = domain.communicator();
  for (int a = 0; a < Rank; ++a) {
    if (!faces_neighbour_on(domain, a, 0) && !faces_neighbour_on(domain, a, 1)) continue;
    MPI_Request requests[4];
    int pending = 0;
    for (int s = 0; s < 2; ++s) {
      const int i = buffers.index[2 * a + s];
      if (i < 0) continue;
      // the neighbour on side s sent towards us, i.e. towards its side 1 - s: tag 2a + (1 - s)
      check_mpi(MPI_Irecv(buffers.receive[i].data(), buffers.receive[i].count(), mpi_type<Scalar>(),
                          domain.neighbour(a, s == 0 ? Side::low : Side::high), 2 * a + (1 - s), comm,
                          &requests[pending++]),
                "MPI_Irecv (halo)");
    }
    for (int s = 0; s < 2; ++s) {
      const int i = buffers.index[2 * a + s];
      if (i < 0) continue;
      pack(space, buffers.send[i].buffer(), v, halo_slab(domain, a, s, false));
      buffers.send[i].to_mpi(space);
    }
    space.fence();
    for (int s = 0; s < 2; ++s) {
      const int i = buffers.index[2 * a + s];
      if (i < 0) continue;
      check_mpi(MPI_Isend(buffers.send[i].data(), buffers.send[i].count(), mpi_type<Scalar>(),
                          domain.neighbour(a, s == 0 ? Side::low : Side::high), 2 * a + s, comm, &requests[pending++]),
                "MPI_Isend (halo)");
    }
    check_mpi(MPI_Waitall(pending, requests, MPI_STATUSES_IGNORE), "MPI_Waitall (halo)");
    for (int s = 0; s < 2; ++s) {
      const int i = buffers.index[2 * a + s];
      if (i < 0) continue;
      buffers.receive[i].from_mpi(space);
      unpack(space, v, halo_slab(domain, a, s, true), buffers.receive[i].buffer());
    }
  }
  // The staging buffers are written by MPI in the next exchange: their copies must be done.
  space.fence();
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
