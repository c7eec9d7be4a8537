#ifndef EBISU_KOKKOS_IMPL_FIELDS_HPP
#define EBISU_KOKKOS_IMPL_FIELDS_HPP

// Read-only fields inside the library (docs/design-fields-boundaries-state.md,
// section 2). A field has a footprint: the stencil's whole neighbourhood, or
// the output cell only (centre_only). Once parallel_stencil knows the state's
// View type every field becomes a View of that type with const data, and the
// set of them a FieldViews<ConstView, Kinds...>: plain Views in an array, the
// footprints as types. A step hands the stencil evaluator the state's accessor
// and one accessor per field, all with the `get<D0, D1, D2>()` interface, so a
// backend decides where each field is read from (the View, the boundary map,
// later a shared-memory tile) without touching the stencil description.

#include <cstddef>

namespace EbisuKokkos {
namespace Impl {

/// Footprint kinds: the functor receives a Neighbors for a NeighbourhoodField
/// and the Scalar at the output cell for a CentreField.
struct NeighbourhoodField {
  static constexpr bool centre_only = false;
};
struct CentreField {
  static constexpr bool centre_only = true;
};
/// Another state field or time level (state.hpp): read like the state, over
/// the stencil's shape (a star-declared update sees zero off the star in every
/// level, and the kernels keep on chip only the star of each).
struct StateLevelField {
  static constexpr bool centre_only = false;
};

/// The fields of one call as Views of one type (ConstView), with their kinds.
template <class ConstView, class... Kinds>
struct FieldViews {
  static constexpr int size = static_cast<int>(sizeof...(Kinds));
  using view_type = ConstView;
  ConstView views[sizeof...(Kinds)];
};
/// No fields: an empty struct, so a step without fields is the step it always was.
template <class ConstView>
struct FieldViews<ConstView> {
  static constexpr int size = 0;
  using view_type = ConstView;
};
using NoFields = FieldViews<void>;

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
