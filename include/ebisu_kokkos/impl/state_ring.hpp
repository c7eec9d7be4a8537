#ifndef EBISU_KOKKOS_IMPL_STATE_RING_HPP
#define EBISU_KOKKOS_IMPL_STATE_RING_HPP

// Several state fields and time levels inside a step (state.hpp): the step
// reads field 0's newest level as "the state" and every other field and level
// as extra neighbourhood fields placed before the call's read-only fields, so
// the evaluator, the boundary map and every accessor are the read-only-field
// machinery unchanged; it writes one output per field. With one field of one
// level there are no extra fields and the output is the View itself: the
// single-field step, as it always was.

#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/impl/fields.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace EbisuKokkos {
namespace Impl {

/// The buffers of a call: field f's ring slot j at f * RingSize + j, slot 0
/// holding the newest level when the call starts. A single-field call is the
/// ring {u, scratch}.
template <class ViewType, int NumFields, int RingSize>
struct StateRing {
  static constexpr int num_fields = NumFields;
  static constexpr int ring_size = RingSize;
  static constexpr int num_levels = RingSize - 1;
  std::array<ViewType, NumFields * RingSize> buffers;

  /// Field f's buffer holding level l after `done` steps of the call.
  const ViewType& level(int f, int l, int done) const {
    return buffers[f * RingSize + ((done - l) % RingSize + RingSize) % RingSize];
  }
  /// The buffer that step `done` (0-based) writes for field f.
  const ViewType& target(int f, int done) const { return buffers[f * RingSize + (done + 1) % RingSize]; }
};

/// The new values of several fields, stored at one cell by store_cell.
template <class ViewType, int NumFields>
struct StateOutputs {
  static constexpr int rank = view_rank<ViewType>;
  ViewType views[NumFields];
};

template <class View, class... I>
KOKKOS_FORCEINLINE_FUNCTION void store_cell(const View& out, typename View::non_const_value_type value, I... i) {
  out(i...) = value;
}
template <class View, int NumFields, class Values, class... I>
KOKKOS_FORCEINLINE_FUNCTION void store_cell(const StateOutputs<View, NumFields>& out, const Values& value, I... i) {
  for (int f = 0; f < NumFields; ++f) out.views[f](i...) = value[f];
}

// Arrays of Views are built element by element (never default-constructed
// first: see compat.hpp). get(k) gives element k.
template <class ConstView, int N, class Get, std::size_t... K>
std::array<ConstView, N> make_state_reads(const Get& get, std::index_sequence<K...>) {
  if constexpr (N == 0) {
    return {};
  } else {
    return {{ConstView(get(static_cast<int>(K)))...}};
  }
}
template <class ConstView, int N, class Get>
std::array<ConstView, N> make_state_reads(const Get& get) {
  return make_state_reads<ConstView, N>(get, std::make_index_sequence<static_cast<std::size_t>(N)>{});
}
template <class ViewType, int NumFields, class Get, std::size_t... K>
StateOutputs<ViewType, NumFields> make_outputs(const Get& get, std::index_sequence<K...>) {
  return {{get(static_cast<int>(K))...}};
}
template <class ViewType, int NumFields, class Get>
StateOutputs<ViewType, NumFields> make_outputs(const Get& get) {
  return make_outputs<ViewType, NumFields>(get, std::make_index_sequence<static_cast<std::size_t>(NumFields)>{});
}

/// A step's outputs: the View for one field, StateOutputs for several.
template <class ViewType, int NumFields>
using StepOutputs = std::conditional_t<NumFields == 1, ViewType, StateOutputs<ViewType, NumFields>>;

// Extra state level I's kind: read over the stencil's shape, or at the cell
// only where the functor takes it as a Scalar (bit I of CentreMask): then the
// kernels keep only its centre (no queue of its neighbourhood).
// (A class, not an alias: nvcc's front end resolves an alias that ignores its
// parameter before expanding the pack.)
template <std::size_t I, unsigned CentreMask>
struct ExtraStateKind {
  using type = std::conditional_t<((CentreMask >> I) & 1u) != 0, CentreField, StateLevelField>;
};

// FieldViews with NumExtra fields for the other state fields and levels before
// the call's read-only fields; none keeps Fields as it is.
// (Deduced by a function: nvcc's front end does not match the equivalent
// class partial specialization against the empty FieldViews<ConstView>.)
template <class ConstView, unsigned CentreMask, std::size_t... I, class FieldView, class... Kinds>
FieldViews<ConstView, typename ExtraStateKind<I, CentreMask>::type..., Kinds...> with_state_fields(
    std::index_sequence<I...>, const FieldViews<FieldView, Kinds...>*);

template <class ConstView, int NumExtra, class Fields, unsigned CentreMask = 0>
using StepFields = std::conditional_t<
    NumExtra == 0, Fields,
    decltype(with_state_fields<ConstView, CentreMask>(std::make_index_sequence<static_cast<std::size_t>(NumExtra)>{},
                                                      static_cast<const Fields*>(nullptr)))>;

// Whether the stencil's functor takes the step's fields (Step: a FieldViews) after the state.
template <class Stencil, class Scalar, class Step>
struct TakesStepFields : std::false_type {};
template <class Stencil, class Scalar, class V, class... Kinds>
struct TakesStepFields<Stencil, Scalar, FieldViews<V, Kinds...>>
    : std::bool_constant<Stencil::template Evaluator<Scalar, Kinds...>::callable> {};

template <class Stencil, class ConstView, int NumExtra, class Fields, unsigned... M>
constexpr unsigned first_taken_mask(std::integer_sequence<unsigned, M...>) {
  using Scalar = typename ConstView::non_const_value_type;
  constexpr bool taken[] = {TakesStepFields<Stencil, Scalar, StepFields<ConstView, NumExtra, Fields, M>>::value...};
  for (unsigned m = 0; m < sizeof...(M); ++m)
    if (taken[m]) return m;
  return 0u;
}
/// The extra state levels a functor takes as Scalars (bit k: extra level k): the first mask, from 0
/// (every level a Neighbors), with which it can be called; 0 where none can (the checks then say why).
template <class Stencil, class ConstView, int NumExtra, class Fields>
constexpr unsigned centre_levels_mask() {
  if constexpr (Stencil::is_linear || NumExtra == 0 || NumExtra > 6) {
    return 0u;
  } else {
    return first_taken_mask<Stencil, ConstView, NumExtra, Fields>(std::make_integer_sequence<unsigned, (1u << NumExtra)>{});
  }
}
/// The fields a step of Stencil over several state fields or levels reads: the other fields and
/// levels (in the functor's order, each of the kind it takes), then the call's read-only fields.
template <class Stencil, class ConstView, int NumExtra, class Fields>
using StateStepFields = StepFields<ConstView, NumExtra, Fields, centre_levels_mask<Stencil, ConstView, NumExtra, Fields>()>;

/// Whether a step reads an older level (level >= 1 of any field) over its neighbourhood. Kinds: the
/// extra levels' kinds (kind k is level q = k + 1, q = f * NL + l), then the read-only fields'. If
/// not, the kernels' queues hold no older planes: an older level read at the cell comes from the
/// thread's own register window.
template <int NS, int NL, class... Kinds>
constexpr bool reads_older_levels_around() {
  bool around = false;
  int k = 0;
  ((around = around || (k < NS * NL - 1 && (k + 1) % NL != 0 && !Kinds::centre_only), ++k), ...);
  return around;
}

/// The step's fields (Step, a StepFields type): `extra` (in the functor's order) then the call's fields.
template <class Step, class ConstView, std::size_t NumExtra, class Fields, std::size_t... E, std::size_t... K>
Step step_fields(const std::array<ConstView, NumExtra>& extra, const Fields& fields, std::index_sequence<E...>,
                 std::index_sequence<K...>) {
  if constexpr (NumExtra == 0) {
    return fields;
  } else {
    return {{extra[E]..., fields.views[K]...}};
  }
}
template <class Step, class ConstView, std::size_t NumExtra, class Fields>
Step step_fields(const std::array<ConstView, NumExtra>& extra, const Fields& fields) {
  return step_fields<Step>(extra, fields, std::make_index_sequence<NumExtra>{},
                           std::make_index_sequence<static_cast<std::size_t>(Fields::size)>{});
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
