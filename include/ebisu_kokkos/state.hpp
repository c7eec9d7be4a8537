#ifndef EBISU_KOKKOS_STATE_HPP
#define EBISU_KOKKOS_STATE_HPP

// Several state fields and time levels: what a stencil updates when one field
// of one time level is not enough (docs/design-fields-boundaries-state.md, section 3).
//
// State<View, NumFields, NumLevels> holds NumFields fields of the same shape,
// each with its last NumLevels time levels and one spare buffer, i.e.
// NumLevels + 1 buffers per field used as a ring: a step writes the new level
// into the buffer of the level that is no longer needed, so nothing is copied
// and a step moves exactly what a hand-written loop moves.
//  - Coupled fields (reaction-diffusion, first-order systems): NumFields > 1,
//    e.g. Gray-Scott is CoupledFields<View, 2> = State<View, 2, 1>.
//  - Two-time-level schemes (the leapfrog wave u^{n+1} = 2u^n - u^{n-1} + ...):
//    NumLevels > 1, e.g. TimeLevels<View, 2> = State<View, 1, 2> (3 buffers).
//
// The stencil is a functor (make_stencil<Rank, Radius>) that takes, in order,
// the Neighbors of every field at every level (field 0's levels newest first,
// then field 1's, ...), then the read-only fields of the call as usual, and
// returns the new value of each field: a Scalar for one field, a
// Kokkos::Array<Scalar, NumFields> otherwise. A level other than field 0's
// newest that the update reads at the cell only may be taken as a Scalar (its
// value there), as u_prev below: the GPU kernels then keep no neighbourhood
// of it. Every value it reads is of a level already computed (what keeps
// temporal blocking legal).
//
//   using View = Kokkos::View<double**>;
//   EbisuKokkos::TimeLevels<View, 2> wave(u_now, u_prev, spare);
//   auto leapfrog = EbisuKokkos::make_stencil<2, 1>(KOKKOS_LAMBDA(
//       const EbisuKokkos::Neighbors<double, 2, 1>& u, double u_prev) {
//     return 2 * u(0, 0) - u_prev + r2 * (u(-1, 0) + u(1, 0) + u(0, -1) + u(0, 1) - 4 * u(0, 0));
//   });
//   EbisuKokkos::parallel_stencil("wave", policy, leapfrog, wave);   // wave.current() is u^{n+T}
//
// Boundary rules apply to every field alike; with a fixed side each new
// level's frame cells keep the newest level's values.

#include <ebisu_kokkos/impl/compat.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <utility>

namespace EbisuKokkos {

namespace Impl {
struct StateAccess;
}

template <class ViewType, int NumFields = 1, int NumLevels = 1>
class State {
  static_assert(Kokkos::is_view<ViewType>::value, "EbisuKokkos::State: the buffers must be Kokkos::Views");
  static_assert(NumFields >= 1 && NumLevels >= 1, "EbisuKokkos::State: at least one field of one time level");

 public:
  using view_type = ViewType;
  static constexpr int num_fields = NumFields;
  static constexpr int num_levels = NumLevels;
  /// Buffers per field: its levels and the spare the next step writes into.
  static constexpr int ring_size = NumLevels + 1;
  static constexpr int num_buffers = NumFields * ring_size;

  /// The buffers field by field: field 0's levels newest first (step n, n-1,
  /// ...) then its spare (contents do not matter), then field 1's, e.g.
  /// TimeLevels<V, 2>(u_now, u_prev, spare), CoupledFields<V, 2>(u, u_spare, v, v_spare).
  template <class... Views,
            class = std::enable_if_t<sizeof...(Views) == static_cast<std::size_t>(num_buffers) &&
                                     (std::is_convertible_v<const Views&, ViewType> && ...)>>
  explicit State(const Views&... buffers) : State(std::array<ViewType, num_buffers>{{ViewType(buffers)...}}) {}

  /// Field f at time level l (0: the newest step, 1: the step before, ...).
  const ViewType& level(int f, int l) const { return m_ring[f * ring_size + slot(-l)]; }
  /// Field f's newest level.
  const ViewType& current(int f = 0) const { return level(f, 0); }

 private:
  friend struct Impl::StateAccess;

  // Ring slot j of a field: slot 0 its newest level, slot 1 the spare, slot
  // j >= 2 level ring_size - j; the newest level then sits in slot m_newest
  // and level l in slot m_newest - l (mod ring_size), the spare in m_newest + 1.
  static constexpr int given_index(int j) { return j == 0 ? 0 : j == 1 ? NumLevels : ring_size - j; }
  template <std::size_t... K>
  static std::array<ViewType, num_buffers> ring_order(const std::array<ViewType, num_buffers>& given,
                                                      std::index_sequence<K...>) {
    return {{given[(K / ring_size) * ring_size + given_index(static_cast<int>(K % ring_size))]...}};
  }
  explicit State(const std::array<ViewType, num_buffers>& given)
      : m_ring(ring_order(given, std::make_index_sequence<num_buffers>{})) {}

  int slot(int offset) const { return ((m_newest + offset) % ring_size + ring_size) % ring_size; }

  std::array<ViewType, num_buffers> m_ring;  // field f's slot j at f * ring_size + j
  int m_newest = 0;
};

/// One field with its last NumLevels time levels (NumLevels + 1 buffers).
template <class ViewType, int NumLevels>
using TimeLevels = State<ViewType, 1, NumLevels>;
/// NumFields fields updated together, one time level each (two buffers per field).
template <class ViewType, int NumFields>
using CoupledFields = State<ViewType, NumFields, 1>;

namespace Impl {
// What parallel_stencil needs of a State: its buffers in ring order from the
// newest level, and the rotation after a run.
struct StateAccess {
  /// Field f's buffer `offset` slots after its newest level (0: newest, 1: the
  /// spare the next step writes, ring_size - l: level l).
  template <class V, int F, int L>
  static const V& slot(const State<V, F, L>& s, int f, int offset) {
    return s.m_ring[f * State<V, F, L>::ring_size + s.slot(offset)];
  }
  /// After `steps` steps the newest level is `steps` slots further.
  template <class V, int F, int L>
  static void advance(State<V, F, L>& s, int steps) {
    s.m_newest = s.slot(steps % State<V, F, L>::ring_size);
  }
};
}  // namespace Impl

}  // namespace EbisuKokkos

#endif
