#ifndef EBISU_KOKKOS_VERSION_HPP
#define EBISU_KOKKOS_VERSION_HPP

#include <ebisu_kokkos/config.hpp>

#include <iosfwd>

namespace EbisuKokkos {

/// "major.minor.patch" of this EbisuKokkos build.
const char* version();

/// Writes what this build enabled (Kokkos version, backends, EBISU kernels).
void print_configuration(std::ostream& out);

}  // namespace EbisuKokkos

#endif
