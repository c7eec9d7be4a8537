#include <Kokkos_Core.hpp>
#define TEST_CATEGORY serial
#define TEST_EXECSPACE Kokkos::Serial
