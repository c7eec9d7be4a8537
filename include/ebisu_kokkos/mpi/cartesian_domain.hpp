#ifndef EBISU_KOKKOS_MPI_CARTESIAN_DOMAIN_HPP
#define EBISU_KOKKOS_MPI_CARTESIAN_DOMAIN_HPP

// A global grid split over the ranks of an MPI communicator, each rank holding
// its block of cells plus a ghost zone deep enough for several time steps.
//
//   EbisuKokkos::Mpi::DomainOptions options;
//   options.boundaries.side[1][0] = options.boundaries.side[1][1] = EbisuKokkos::Boundary::periodic;
//   EbisuKokkos::Mpi::CartesianDomain<2> domain(MPI_COMM_WORLD, {4096, 4096}, /*radius=*/1, options);
//   auto buffers = domain.create_buffers<Kokkos::View<double**>>("u");   // local extents, ghosts included
//   // fill the owned cells: global index domain.owned_begin(a) + i sits at local index domain.ghost(a, Side::low) + i
//   EbisuKokkos::Mpi::parallel_stencil("heat", domain, policy, stencil, buffers);
//
// Ghost zones are radius x steps_per_exchange() cells deep on each side that
// faces another rank; a side on the global edge has none and follows the
// domain's boundary rule there. The ranks exchange their ghost zones once per
// steps_per_exchange() steps and recompute them in between
// (communication-avoiding: the halo is as deep as the steps it serves).

#include <ebisu_kokkos/double_buffer.hpp>
#include <ebisu_kokkos/impl/mpi/decomposition.hpp>
#include <ebisu_kokkos/impl/mpi/halo_exchange.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <array>
#include <climits>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace EbisuKokkos {
namespace Mpi {

/// Whether a round's halo exchange runs while the block's interior computes.
enum class ExchangeOverlap {
  automatic,  ///< measured: on where it was faster (execution spaces that run asynchronously to the host only)
  off,        ///< exchange, then compute (every decomposition)
  on          ///< overlap wherever the decomposition allows it (one split axis, blocks at least 2 ghost zones thick)
};

inline const char* to_string(ExchangeOverlap o) {
  return o == ExchangeOverlap::automatic ? "automatic" : o == ExchangeOverlap::off ? "off" : "on";
}

struct DomainOptions {
  /// Ranks along each axis (0: MPI_Dims_create decides; it splits index 0 most, the slowest index of LayoutRight).
  std::array<int, 3> ranks_per_axis{{0, 0, 0}};
  /// Time steps between two halo exchanges (0: chosen from the block sizes, see default_steps_per_exchange).
  int steps_per_exchange = 0;
  /// The global domain's boundary rules; a periodic axis makes the Cartesian communicator periodic there.
  BoundaryRules boundaries;
  /// Overlap of the exchange with the interior's steps (see mpi/parallel_stencil.hpp).
  ExchangeOverlap overlap = ExchangeOverlap::automatic;
};

template <int Rank>
class CartesianDomain {
  static_assert(Rank >= 1 && Rank <= 3, "EbisuKokkos::Mpi::CartesianDomain: rank 1, 2 or 3");

 public:
  static constexpr int rank_value = Rank;
  using extents_type = std::array<std::int64_t, Rank>;

  /// Collective over `comm`. `radius`: the largest stencil radius the domain will run.
  CartesianDomain(MPI_Comm comm, const extents_type& extents, int radius, const DomainOptions& options = {})
      : m_extents(extents), m_radius(radius), m_boundaries(options.boundaries), m_overlap(options.overlap) {
    if (radius < 1) invalid("radius must be >= 1, got " + std::to_string(radius));
    int size = 0;
    Impl::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    for (int a = 0; a < 3; ++a) {
      const Boundary lo = m_boundaries.side[a][0], hi = m_boundaries.side[a][1];
      if (a >= Rank && (lo != Boundary::fixed || hi != Boundary::fixed)) {
        invalid("a boundary rule is set on index " + std::to_string(a) + " of a rank-" + std::to_string(Rank) + " domain");
      }
      if ((lo == Boundary::periodic) != (hi == Boundary::periodic)) {
        invalid("index " + std::to_string(a) + " is periodic on one side only; periodic needs both sides");
      }
    }
    int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
    int given = 1;
    for (int a = 0; a < Rank; ++a) {
      if (m_extents[a] < 1 || m_extents[a] > INT32_MAX) {
        invalid("extent " + std::to_string(m_extents[a]) + " along index " + std::to_string(a) +
                " is not in [1, 2^31-1]");
      }
      if (options.ranks_per_axis[a] < 0) invalid("ranks_per_axis must be >= 0 (0: chosen by MPI_Dims_create)");
      dims[a] = options.ranks_per_axis[a];
      if (dims[a] > 0) given *= dims[a];
      periods[a] = m_boundaries.side[a][0] == Boundary::periodic ? 1 : 0;
    }
    for (int a = Rank; a < 3; ++a) {
      if (options.ranks_per_axis[a] > 1) invalid("ranks_per_axis sets index " + std::to_string(a) + " of a rank-" + std::to_string(Rank) + " domain");
    }
    if (size % given != 0) {
      invalid("ranks_per_axis asks for a multiple of " + std::to_string(given) + " ranks, the communicator has " +
              std::to_string(size));
    }
    bool all_given = true;
    for (int a = 0; a < Rank; ++a) all_given = all_given && dims[a] > 0;
    if (all_given && given != size) {
      invalid("ranks_per_axis asks for " + std::to_string(given) + " ranks, the communicator has " +
              std::to_string(size));
    }
    if (options.steps_per_exchange < 0) invalid("steps_per_exchange must be >= 0 (0: chosen from the block sizes)");
    Impl::check_mpi(MPI_Dims_create(size, Rank, dims), "MPI_Dims_create");
    MPI_Comm cart = MPI_COMM_NULL;
    Impl::check_mpi(MPI_Cart_create(comm, Rank, dims, periods, /*reorder=*/0, &cart), "MPI_Cart_create");
    m_comm = std::shared_ptr<MPI_Comm>(new MPI_Comm(cart), [](MPI_Comm* c) {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized && *c != MPI_COMM_NULL) MPI_Comm_free(c);
      delete c;
    });
    Impl::check_mpi(MPI_Comm_rank(cart, &m_rank), "MPI_Comm_rank");
    m_size = size;
    int coords[3] = {0, 0, 0};
    Impl::check_mpi(MPI_Cart_coords(cart, m_rank, Rank, coords), "MPI_Cart_coords");

    std::array<std::int64_t, Rank> smallest{};
    std::array<int, Rank> exchanged{};
    for (int a = 0; a < Rank; ++a) {
      m_dims[a] = dims[a];
      m_coords[a] = coords[a];
      if (m_extents[a] < dims[a]) {
        invalid("extent " + std::to_string(m_extents[a]) + " along index " + std::to_string(a) + " is split over " +
                std::to_string(dims[a]) + " ranks: fewer cells than ranks");
      }
      const Impl::BlockRange block = Impl::block_range(m_extents[a], dims[a], coords[a]);
      m_owned_begin[a] = block.begin;
      m_owned_extent[a] = block.extent;
      m_faces[a] = Impl::faces(dims[a], coords[a], m_boundaries.side[a][0]);
      smallest[a] = Impl::smallest_block(m_extents[a], dims[a]);
      exchanged[a] = dims[a] > 1 ? 2 : 0;
      Impl::check_mpi(MPI_Cart_shift(cart, a, 1, &m_neighbour[a][0], &m_neighbour[a][1]), "MPI_Cart_shift");
    }
    m_steps_per_exchange = options.steps_per_exchange > 0
                               ? options.steps_per_exchange
                               : Impl::default_steps_per_exchange<Rank>(smallest, exchanged, radius);
    const std::int64_t g = ghost_width();
    for (int a = 0; a < Rank; ++a) {
      if (dims[a] > 1 && smallest[a] < g) {
        invalid("the smallest block along index " + std::to_string(a) + " (" + std::to_string(smallest[a]) +
                " cells over " + std::to_string(dims[a]) + " ranks) is thinner than the ghost zone (radius " +
                std::to_string(radius) + " x " + std::to_string(m_steps_per_exchange) +
                " steps per exchange = " + std::to_string(g) + " cells): use fewer ranks or fewer steps per exchange");
      }
      for (int s = 0; s < 2; ++s) {
        m_ghost[a][s] = m_faces[a][s] == Impl::Face::neighbour ? g : 0;
        m_local_boundaries.side[a][s] =
            m_faces[a][s] == Impl::Face::neighbour ? Boundary::fixed : m_boundaries.side[a][s];
      }
      if (local_extent(a) < 2 * radius + 1) {
        invalid("a block along index " + std::to_string(a) + " has " + std::to_string(local_extent(a)) +
                " cells with its ghosts, fewer than a radius-" + std::to_string(radius) + " stencil needs (" +
                std::to_string(2 * radius + 1) + ")");
      }
    }
  }

  MPI_Comm communicator() const { return *m_comm; }
  int rank() const { return m_rank; }
  int size() const { return m_size; }
  int radius() const { return m_radius; }
  int steps_per_exchange() const { return m_steps_per_exchange; }
  ExchangeOverlap overlap() const { return m_overlap; }
  /// Ghost cells on each side that faces another rank: radius() x steps_per_exchange().
  std::int64_t ghost_width() const { return static_cast<std::int64_t>(m_radius) * m_steps_per_exchange; }
  const extents_type& global_extents() const { return m_extents; }
  int ranks_per_axis(int axis) const { return m_dims[axis]; }
  int coordinate(int axis) const { return m_coords[axis]; }
  /// Global index of this rank's first owned cell along `axis`.
  std::int64_t owned_begin(int axis) const { return m_owned_begin[axis]; }
  std::int64_t owned_extent(int axis) const { return m_owned_extent[axis]; }
  /// Ghost cells before (Side::low) or after (Side::high) the owned cells in the local View.
  std::int64_t ghost(int axis, Side side) const { return m_ghost[axis][side == Side::low ? 0 : 1]; }
  std::int64_t local_extent(int axis) const { return m_ghost[axis][0] + m_owned_extent[axis] + m_ghost[axis][1]; }
  /// The rank across one side (MPI_PROC_NULL at a global edge that is not periodic).
  int neighbour(int axis, Side side) const { return m_neighbour[axis][side == Side::low ? 0 : 1]; }
  /// Whether a side of the local View faces another rank's cells (has a ghost zone).
  bool faces_neighbour(int axis, Side side) const {
    return m_faces[axis][side == Side::low ? 0 : 1] == Impl::Face::neighbour;
  }
  /// Whether any side of the local View faces another rank (false on one rank: then a call
  /// runs all its steps in one go, with no exchange).
  bool has_neighbours() const {
    for (int a = 0; a < Rank; ++a)
      if (faces_neighbour(a, Side::low) || faces_neighbour(a, Side::high)) return true;
    return false;
  }
  /// The global domain's boundary rules.
  const BoundaryRules& boundaries() const { return m_boundaries; }
  /// The rules of the local View: the global rule on a global edge, a fixed frame (the ghost zone) elsewhere.
  const BoundaryRules& local_boundaries() const { return m_local_boundaries; }

  /// A View of this rank's local extents (owned cells and ghosts).
  template <class ViewType>
  ViewType create_view(const std::string& label) const {
    Impl::Box box;
    for (int a = 0; a < Rank; ++a) box.extent[a] = local_extent(a);
    return Impl::allocate_box<ViewType>(label, box);
  }
  template <class ViewType>
  DoubleBuffer<ViewType> create_buffers(const std::string& label) const {
    return DoubleBuffer<ViewType>(create_view<ViewType>(label), create_view<ViewType>(label + "_alternate"));
  }
  /// The owned cells of a local View (a subview).
  template <class ViewType>
  auto owned(const ViewType& local) const {
    return Impl::box_of(local, owned_box());
  }
  /// The owned cells' box in local indices.
  Impl::Box owned_box() const {
    Impl::Box box;
    for (int a = 0; a < Rank; ++a) {
      box.begin[a] = m_ghost[a][0];
      box.extent[a] = m_owned_extent[a];
    }
    return box;
  }
  /// The exchange buffers kept with the domain (shared by its copies).
  Impl::HaloBufferCache& halo_cache() const { return *m_halo_cache; }
  /// The owned box of rank `r` in global indices.
  Impl::Box owned_box_of(int r) const {
    int coords[3] = {0, 0, 0};
    Impl::check_mpi(MPI_Cart_coords(*m_comm, r, Rank, coords), "MPI_Cart_coords");
    Impl::Box box;
    for (int a = 0; a < Rank; ++a) {
      const Impl::BlockRange block = Impl::block_range(m_extents[a], m_dims[a], coords[a]);
      box.begin[a] = block.begin;
      box.extent[a] = block.extent;
    }
    return box;
  }

 private:
  [[noreturn]] static void invalid(const std::string& what) {
    throw std::invalid_argument("EbisuKokkos::Mpi::CartesianDomain: " + what);
  }

  extents_type m_extents;
  int m_radius;
  BoundaryRules m_boundaries;
  BoundaryRules m_local_boundaries;
  ExchangeOverlap m_overlap;
  std::shared_ptr<MPI_Comm> m_comm;
  int m_rank = 0, m_size = 1;
  std::array<int, Rank> m_dims{}, m_coords{};
  std::array<std::int64_t, Rank> m_owned_begin{}, m_owned_extent{};
  std::array<std::array<Impl::Face, 2>, Rank> m_faces{};
  std::array<std::array<std::int64_t, 2>, Rank> m_ghost{};
  std::array<std::array<int, 2>, Rank> m_neighbour{};
  int m_steps_per_exchange = 1;
  std::shared_ptr<Impl::HaloBufferCache> m_halo_cache = std::make_shared<Impl::HaloBufferCache>();
};

}  // namespace Mpi
}  // namespace EbisuKokkos

#endif
