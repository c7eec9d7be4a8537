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

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
