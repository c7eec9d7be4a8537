#include <ebisu_kokkos/config.hpp>
#include <ebisu_kokkos/version.hpp>

#include <Kokkos_Core.hpp>

#include <ostream>

namespace EbisuKokkos {

const char* version() { return EBISU_KOKKOS_VERSION_STRING; }

void print_configuration(std::ostream& out) {
  out << "EbisuKokkos " << version() << " with Kokkos " << KOKKOS_VERSION / 10000 << '.'
      << (KOKKOS_VERSION / 100) % 100 << '.' << KOKKOS_VERSION % 100 << '\n';
#ifdef EBISU_KOKKOS_ENABLE_CUDA_KERNELS
  out << "  EBISU CUDA kernels: enabled\n";
#else
  out << "  EBISU CUDA kernels: not built (generic backend on every execution space)\n";
#endif
  out << "  default execution space: " << Kokkos::DefaultExecutionSpace::name() << '\n';
}

}  // namespace EbisuKokkos
