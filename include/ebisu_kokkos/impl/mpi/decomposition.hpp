#ifndef EBISU_KOKKOS_IMPL_MPI_DECOMPOSITION_HPP
#define EBISU_KOKKOS_IMPL_MPI_DECOMPOSITION_HPP

// The arithmetic of a Cartesian domain decomposition, free of MPI so that it
// can be tested on its own: which cells a rank owns, how deep its ghost zone
// is on each side, and how many steps run between two halo exchanges.

#include <ebisu_kokkos/policy.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace EbisuKokkos {
namespace Mpi {
namespace Impl {

/// Block distribution of `extent` cells over `parts` ranks: the first
/// extent % parts ranks own one cell more.
struct BlockRange {
  std::int64_t begin = 0;
  std::int64_t extent = 0;
};

inline BlockRange block_range(std::int64_t extent, int parts, int index) {
  const std::int64_t base = extent / parts, extra = extent % parts;
  BlockRange r;
  r.begin = index * base + std::min<std::int64_t>(index, extra);
  r.extent = base + (index < extra ? 1 : 0);
  return r;
}

/// The smallest block any rank owns along an axis split into `parts`.
inline std::int64_t smallest_block(std::int64_t extent, int parts) { return extent / parts; }

/// What a side of a rank's local View faces.
enum class Face {
  neighbour,  ///< another rank's cells (or its own across a periodic axis split over several ranks): a ghost zone
  edge        ///< the global domain's edge: the user's boundary rule, no ghost zone
};

/// The sides of the local View along one axis, given how many ranks share
/// the axis and the global rule there. A periodic axis kept on one rank wraps
/// locally (the local View is periodic there and needs no ghosts).
inline std::array<Face, 2> faces(int ranks_on_axis, int coordinate, Boundary low_rule) {
  if (low_rule == Boundary::periodic && ranks_on_axis > 1) return {Face::neighbour, Face::neighbour};
  return {coordinate > 0 ? Face::neighbour : Face::edge,
          coordinate < ranks_on_axis - 1 ? Face::neighbour : Face::edge};
}

/// Steps between two exchanges when the caller leaves it to us. Each round
/// recomputes the ghost zone (radius x steps deep per exchanged side), so the
/// redundant work grows with the depth while the number of exchanges falls
/// with it, and an exchange costs far more than its bytes (pack, host staging
/// where MPI cannot read device memory, latency). Rule: the deepest halo whose
/// extra cells stay within 10% of the owned block, at most 64 steps (a multiple
/// of the temporal depths the GPU kernels use), at least 1, and never deeper
/// than the smallest block a neighbour owns (its cells are what fills the halo).
/// `owned` and `exchanged_sides` per axis (0, 1 or 2 sides with a ghost zone).
template <int Rank>
int default_steps_per_exchange(const std::array<std::int64_t, Rank>& smallest_owned,
                               const std::array<int, Rank>& exchanged_sides, int radius) {
  constexpr int kMaxSteps = 64;
  constexpr double kMaxExtraWork = 0.10;
  int best = 1;
  for (int k = 1; k <= kMaxSteps; ++k) {
    const std::int64_t ghost = static_cast<std::int64_t>(k) * radius;
    double growth = 1.0;
    bool fits = true;
    for (int a = 0; a < Rank; ++a) {
      if (exchanged_sides[a] == 0) continue;
      if (ghost > smallest_owned[a]) fits = false;
      growth *= static_cast<double>(smallest_owned[a] + exchanged_sides[a] * ghost) /
                static_cast<double>(smallest_owned[a]);
    }
    if (!fits) break;
    if (k > 1 && growth - 1.0 > kMaxExtraWork) break;
    best = k;
  }
  return best;
}

}  // namespace Impl
}  // namespace Mpi
}  // namespace EbisuKokkos

#endif
