#ifndef EBISU_KOKKOS_IMPL_COMPAT_HPP
#define EBISU_KOKKOS_IMPL_COMPAT_HPP

// Every difference between the Kokkos versions we support (3.4 through 5.x)
// lives here, so the rest of the library is written against one API.

#include <Kokkos_Core.hpp>

#include <type_traits>

#if !defined(KOKKOS_VERSION) || KOKKOS_VERSION < 30400
#error "EbisuKokkos needs Kokkos 3.4 or newer"
#endif

namespace EbisuKokkos {
namespace Impl {

// View::rank is a static constexpr value in 3.x and an integral_constant-like
// object in 4.x+; both convert to an integer in a constant expression.
template <class ViewType>
inline constexpr int view_rank = static_cast<int>(ViewType::rank);

template <class ExecSpace, class MemorySpace>
inline constexpr bool is_accessible_from =
    Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible;

#if KOKKOS_VERSION >= 40000
inline constexpr bool kokkos_has_instance_streams = true;
#else
inline constexpr bool kokkos_has_instance_streams = false;
#endif

// ---------------------------------------------------------------------------
// Default-constructed Views under GCC 12 with Kokkos' mdspan-based View.
//
// Kokkos 4.99/5.x builds View on BasicView (unless Kokkos was configured with
// Kokkos_ENABLE_IMPL_VIEW_LEGACY=ON). Compiled by GCC 12 in C++20 mode, a
// default-constructed or value-initialized View (`View v;`, `View v{};`, a
// View member of a defaulted constructor) comes out with its reference-count
// tracker zeroed instead of holding the "no record" flag, so its destructor or
// the first assignment to it calls SharedAllocationRecord::decrement(nullptr)
// and crashes. This is a compiler bug, not ours and not a Kokkos API change.
// Evidence (Kokkos develop 28848df, Debian GCC 12.2.0, -std=c++20):
//  - `Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> v;` alone
//    has all 40 bytes zero (tracker 0, expected 1) and SIGSEGVs at scope exit;
//    `View(nullptr, 0, 0)`, `View()` as a temporary, copies and allocations
//    are correct;
//  - a Kokkos-free model of BasicView's members (a union whose constexpr
//    default constructor sets 1, and an empty accessor member declared
//    [[no_unique_address]] that overlaps it, all with `{}` initializers)
//    reads 0 under g++ 12.2 -std=c++20 and 1 under -std=c++17, with clang 14
//    in either mode, with a non-constexpr union constructor, or without
//    [[no_unique_address]];
//  - upstream: kokkos/kokkos issues #7464 and #8187 (default-constructed
//    BasicView / View tests segfault with GCC 12.2-12.4) and the fix in
//    kokkos/kokkos PR #8223 (July 2025, after the 28848df snapshot), which
//    makes the tracker's constructor non-constexpr for GCC 12.
// The library therefore never default-constructs a View: where it needs an
// empty one it uses unallocated_view<V>(), which under the affected
// combination builds the same empty View from a null pointer (data() is
// nullptr, every extent 0, nothing tracked) and is `V()` everywhere else.
#if defined(__GNUC__) && !defined(__clang__) && (__GNUC__ == 12) && KOKKOS_VERSION >= 40699 && \
    !defined(KOKKOS_ENABLE_IMPL_VIEW_LEGACY)
inline constexpr bool default_constructed_views_are_unsafe = true;
#else
inline constexpr bool default_constructed_views_are_unsafe = false;
#endif

template <class ViewType>
ViewType unallocated_view() {
  if constexpr (default_constructed_views_are_unsafe) {
    return ViewType(typename ViewType::pointer_type(nullptr), typename ViewType::array_layout());
  } else {
    return ViewType();
  }
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
