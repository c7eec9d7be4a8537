#ifndef EBISU_KOKKOS_IMPL_LEVEL_POOL_HPP
#define EBISU_KOKKOS_IMPL_LEVEL_POOL_HPP

// The buffers of a temporally blocked call on several state fields (state.hpp),
// shared by the CUDA SM-tiling kernels (2-D, 3-D) and the host blocked path. A
// launch reads NL levels of every field and writes up to NL new ones; its
// blocks (work items on the host) overlap their halos, so a new level must not
// land in a buffer that another block of the same launch may still read. A
// field's ring has NL + 1 buffers: enough for one level, too few for NL >= 2,
// so the pool borrows NL - 1 more per field for the call. Each launch
// writes its new levels into slots no level of it reads; at the end the levels
// are copied into the ring slots the caller's ring expects (at most 2 NL
// copies of each field per call).

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

namespace EbisuKokkos {
namespace Impl {

/// Why a pool cannot take these buffers (empty: it can): the kernels give every level one set of strides.
template <class ViewType, std::size_t N>
std::string level_pool_refusal(const std::array<ViewType, N>& ring) {
  for (const ViewType& v : ring) {
    if (v.span() != v.size()) return "the blocked kernels run several state fields only on unpadded Views";
  }
  return "";
}

template <class Scalar, class MemorySpace, int NS, int NL>
class LevelPool {
 public:
  static constexpr int ring_slots = NL + 1;             // per field, the caller's ring
  static constexpr int borrowed_per_field = NL - 1;
  static constexpr int slots = ring_slots + borrowed_per_field;
  static constexpr int levels = NS * NL;                // q = f * NL + l

  /// ring: the buffers in StateRing order (field f's slot j at f * (NL + 1) + j, slot 0 its newest
  /// level), unpadded Views of one size.
  template <class ViewType>
  explicit LevelPool(const std::array<ViewType, NS * ring_slots>& ring) : cells_(ring[0].size()) {
    for (int i = 0; i < NS * ring_slots; ++i) ring_[i] = ring[i].data();
    if (borrowed_per_field > 0) {
      borrowed_ = Borrowed(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("EbisuKokkos::state_levels")),
                           cells_ * NS * borrowed_per_field);
    }
    for (int l = 0; l < NL; ++l) at_[l] = ((-l) % ring_slots + ring_slots) % ring_slots;
  }

  /// The buffers of the next launch, of `depth` steps: level q of the input in in[q], new level q
  /// into out[q] (a level l >= depth is the launch's input level l - depth, already in place).
  void next_launch(int depth, const Scalar* (&in)[levels], Scalar* (&out)[levels]) {
    bool used[slots] = {};
    for (int l = 0; l < NL; ++l) used[at_[l]] = true;
    int next[NL];
    for (int l = 0; l < NL; ++l) {
      if (l < depth) {
        int p = 0;
        while (used[p]) ++p;  // a free slot exists: NL read, at most NL written, 2 NL in the pool
        used[p] = true;
        next[l] = p;
      } else {
        next[l] = at_[l - depth];
      }
    }
    for (int q = 0; q < levels; ++q) {
      in[q] = buffer(q / NL, at_[q % NL]);
      out[q] = buffer(q / NL, next[q % NL]);
    }
    for (int l = 0; l < NL; ++l) at_[l] = next[l];
  }

  /// After the launches of `steps` steps: every level into the ring slot the caller's ring expects
  /// (T - l). A misplaced level whose slot is free moves there; when every misplaced level's slot is
  /// held by another level, one holder is parked in a slot nobody holds or wants (one exists then:
  /// 2 NL slots, NL held, every wanted free slot taken). Returns the number of copies.
  template <class ExecSpace>
  int settle(int steps, const ExecSpace& space) {
    int want[NL];
    for (int l = 0; l < NL; ++l) want[l] = ((steps - l) % ring_slots + ring_slots) % ring_slots;
    auto holder = [&](int p) {
      for (int l = 0; l < NL; ++l)
        if (at_[l] == p) return l;
      return -1;
    };
    auto move = [&](int l, int to) {
      for (int f = 0; f < NS; ++f) {
        Kokkos::deep_copy(space, Unmanaged(buffer(f, to), cells_), Unmanaged(buffer(f, at_[l]), cells_));
      }
      at_[l] = to;
    };
    int copies = 0;
    for (;; ++copies) {
      int misplaced = -1, free_target = -1;
      for (int l = NL - 1; l >= 0; --l) {
        if (at_[l] == want[l]) continue;
        misplaced = l;
        if (holder(want[l]) < 0) free_target = l;
      }
      if (misplaced < 0) break;
      if (free_target >= 0) {
        move(free_target, want[free_target]);
      } else {
        int park = 0;
        while (holder(park) >= 0 || std::find(want, want + NL, park) != want + NL) ++park;
        move(holder(want[misplaced]), park);
      }
    }
    return copies;
  }

  /// For the report.
  std::string describe(int copies) const {
    std::string s = "; " + std::to_string(NS) + " state field(s) of " + std::to_string(NL) + " level(s)";
    if (borrowed_per_field > 0) s += ", " + std::to_string(NS * borrowed_per_field) + " level buffer(s) borrowed for the call";
    if (copies > 0) s += ", " + std::to_string(copies) + " level copy(ies) into the ring at the end";
    return s;
  }

  /// The borrowed buffers are freed with the pool: not before the stream has used them.
  template <class ExecutionSpace>
  void release_after(const ExecutionSpace& space) const {
    if (borrowed_per_field > 0) space.fence();
  }

 private:
  using Borrowed = Kokkos::View<Scalar*, MemorySpace>;
  using Unmanaged = Kokkos::View<Scalar*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Scalar* buffer(int f, int p) const {
    return p < ring_slots ? ring_[f * ring_slots + p]
                          : borrowed_.data() + (static_cast<std::size_t>(f) * borrowed_per_field + (p - ring_slots)) * cells_;
  }

  std::size_t cells_;
  Scalar* ring_[NS * ring_slots];
  Borrowed borrowed_;
  int at_[NL];  // the pool slot of level l (the same for every field)
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
