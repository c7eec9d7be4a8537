#ifndef EBISU_KOKKOS_IMPL_CUDA_DEVICE_PROPERTIES_HPP
#define EBISU_KOKKOS_IMPL_CUDA_DEVICE_PROPERTIES_HPP

#include <ebisu_kokkos/impl/performance_model.hpp>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

/// The model's view of CUDA device `device`, read from the runtime once and
/// cached (thread-safe). grid_sync_us is 0 until measure_grid_sync_us fills it.
const DeviceModel& device_model(int device);

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
