#ifndef EBISU_KOKKOS_FIELDS_HPP
#define EBISU_KOKKOS_FIELDS_HPP

// Read-only fields: Views a stencil reads next to its state but never writes
// (a conductivity, a per-cell coefficient, a source term). Pass them after
// the state:
//
//   auto heat = EbisuKokkos::make_stencil<2, 1>(
//       KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 2, 1>& u,
//                     const EbisuKokkos::Neighbors<double, 2, 1>& k, double f) {
//         const double kx_lo = 0.5 * (k(-1, 0) + k(0, 0)), kx_hi = 0.5 * (k(1, 0) + k(0, 0));
//         const double ky_lo = 0.5 * (k(0, -1) + k(0, 0)), ky_hi = 0.5 * (k(0, 1) + k(0, 0));
//         return u(0, 0) + dt * (kx_hi * (u(1, 0) - u(0, 0)) - kx_lo * (u(0, 0) - u(-1, 0)) +
//                                ky_hi * (u(0, 1) - u(0, 0)) - ky_lo * (u(0, 0) - u(0, -1)) + f);
//       });
//   EbisuKokkos::parallel_stencil("heat", policy, heat, u, scratch,
//                                 EbisuKokkos::fields(k, EbisuKokkos::centre_only(f)));
//
// The functor takes one argument per field after the state, in order: a
// Neighbors for a field (read anywhere in the stencil's footprint), the
// Scalar at the output cell for a centre_only(field). Every field has the
// state's extents, layout, memory space and scalar (const data allowed), and
// must not overlap u or scratch. Fields next to a periodic or mirror side are
// read through the same boundary rule as the state.
//
// On Kokkos::Cuda the EBISU kernels read the fields on chip: device tiling (one
// shared-memory tile per field) and 2-D SM tiling (a shared-memory row queue per
// field); 3-D SM tiling does not stream them yet. Host execution spaces run
// calls with fields on the generic path (one Kokkos dispatch per step), and
// Backend::ebisu refuses them there.

#include <ebisu_kokkos/impl/fields.hpp>

#include <Kokkos_Core.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

namespace EbisuKokkos {

/// A field the stencil reads only at the output cell (made by centre_only).
template <class ViewType>
struct CentreOnly {
  using view_type = ViewType;
  ViewType view;
};

/// Marks a field as read at the output cell only: the functor gets its value
/// there (a Scalar), not a neighbourhood; no halo of it is ever read.
template <class ViewType>
CentreOnly<ViewType> centre_only(const ViewType& v) {
  static_assert(Kokkos::is_view<ViewType>::value, "EbisuKokkos::centre_only: the argument must be a Kokkos::View");
  return CentreOnly<ViewType>{v};
}

namespace Impl {
template <class T>
struct FieldArgument {
  static constexpr bool valid = Kokkos::is_view<T>::value;
  using kind = NeighbourhoodField;
  using view_type = T;
  static const T& view(const T& v) { return v; }
};
template <class V>
struct FieldArgument<CentreOnly<V>> {
  static constexpr bool valid = Kokkos::is_view<V>::value;
  using kind = CentreField;
  using view_type = V;
  static const V& view(const CentreOnly<V>& c) { return c.view; }
};
}  // namespace Impl

/// The read-only fields of one parallel_stencil call (made by fields(...)).
template <class... Fs>
class Fields {
 public:
  static constexpr int size = static_cast<int>(sizeof...(Fs));
  static_assert((Impl::FieldArgument<Fs>::valid && ...),
                "EbisuKokkos::fields: every argument must be a Kokkos::View or EbisuKokkos::centre_only(View)");

  explicit Fields(const Fs&... f) : m_fields(f...) {}

  /// The arguments as given (Views and CentreOnly wrappers).
  const std::tuple<Fs...>& arguments() const { return m_fields; }

 private:
  std::tuple<Fs...> m_fields;
};

/// Bundles read-only fields for parallel_stencil, in the order the stencil
/// functor takes them: Views (read over the footprint) or centre_only(View).
template <class... Fs>
Fields<Fs...> fields(const Fs&... f) {
  return Fields<Fs...>(f...);
}

namespace Impl {

/// Whether field argument F can stand next to a state of type ViewType (same
/// rank, value type up to const, layout and memory space).
template <class ViewType, class F>
constexpr bool field_matches() {
  if constexpr (!FieldArgument<F>::valid) {
    return false;
  } else {
    using V = typename FieldArgument<F>::view_type;
    return static_cast<int>(V::rank) == static_cast<int>(ViewType::rank) &&
           std::is_same_v<typename V::non_const_value_type, typename ViewType::non_const_value_type> &&
           std::is_same_v<typename V::array_layout, typename ViewType::array_layout> &&
           std::is_same_v<typename V::memory_space, typename ViewType::memory_space>;
  }
}

/// The fields as Views of the state's const View type, with their kinds.
/// (Fields that do not match are rejected by check_field_types' static_asserts.)
template <class ConstView, class... Fs>
FieldViews<ConstView, typename FieldArgument<Fs>::kind...> field_views(const Fields<Fs...>& f) {
  if constexpr (sizeof...(Fs) == 0 || !(field_matches<ConstView, Fs>() && ...)) {
    return {};
  } else {
    return std::apply(
        [](const Fs&... x) {
          return FieldViews<ConstView, typename FieldArgument<Fs>::kind...>{{ConstView(FieldArgument<Fs>::view(x))...}};
        },
        f.arguments());
  }
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
