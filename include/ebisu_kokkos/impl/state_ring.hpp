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

// (A class, not an alias: nvcc's front end resolves an alias that ignores its
// parameter before expanding the pack.)
template <std::size_t>
struct ExtraStateKind {
  using type = StateLevelField;
};

// FieldViews with NumExtra neighbourhood fields (the other state fields and
// levels) before the call's read-only fields; none keeps Fields as it is.
// (Deduced by a function: nvcc's front end does not match the equivalent
// class partial specialization against the empty FieldViews<ConstView>.)
template <class ConstView, std::size_t... I, class FieldView, class... Kinds>
FieldViews<ConstView, typename ExtraStateKind<I>::type..., Kinds...> with_state_fields(std::index_sequence<I...>,
                                                                        const FieldViews<FieldView, Kinds...>*);

template <class ConstView, int NumExtra, class Fields>
using StepFields =
    std::conditional_t<NumExtra == 0, Fields,
                       decltype(with_state_fields<ConstView>(std::make_index_sequence<static_cast<std::size_t>(NumExtra)>{},
                                                             static_cast<const Fields*>(nullptr)))>;

/// The step's fields: `extra` (in the functor's order) then the call's fields.
template <class ConstView, std::size_t NumExtra, class Fields, std::size_t... E, std::size_t... K>
StepFields<ConstView, NumExtra, Fields> step_fields(const std::array<ConstView, NumExtra>& extra, const Fields& fields,
                                                    std::index_sequence<E...>, std::index_sequence<K...>) {
  if constexpr (NumExtra == 0) {
    return fields;
  } else {
    return {{extra[E]..., fields.views[K]...}};
  }
}
template <class ConstView, std::size_t NumExtra, class Fields>
StepFields<ConstView, NumExtra, Fields> step_fields(const std::array<ConstView, NumExtra>& extra, const Fields& fields) {
  return step_fields(extra, fields, std::make_index_sequence<NumExtra>{},
                     std::make_index_sequence<static_cast<std::size_t>(Fields::size)>{});
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
