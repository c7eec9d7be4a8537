#ifndef EBISU_KOKKOS_IMPL_MPI_HALO_EXCHANGE_HPP
#define EBISU_KOKKOS_IMPL_MPI_HALO_EXCHANGE_HPP

// Moving boxes of a local View between ranks: the ghost-zone exchange of a
// distributed parallel_stencil, and the gather / scatter of whole fields.
//
// A box of a View is copied into a contiguous buffer in the View's memory
// space (one Kokkos copy on the caller's execution space instance), handed to
// MPI, and copied out the same way. Buffers in memory the host cannot read go
// to MPI directly when the MPI library says it is device-aware (checked at run
// time), through a host copy otherwise.

#include <ebisu_kokkos/impl/compat.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_Query_cuda_support
#endif

#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

namespace EbisuKokkos {
namespace Mpi {
namespace Impl {

using EbisuKokkos::Impl::view_rank;

[[noreturn]] inline void mpi_failed(const char* what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("EbisuKokkos::Mpi: ") + what + " failed: " + std::string(text, length));
}

inline void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS) mpi_failed(what, code);
}

/// Whether MPI may be handed pointers to device memory. EBISU_MPI_DEVICE_AWARE=0/1 overrides the query.
/// Asked of the library at run time: the header's MPIX_CUDA_AWARE_SUPPORT says only what the MPI this
/// was compiled against supports, and the same program may run on another build of it (Debian's Open
/// MPI has the query but no CUDA support; one built with CUDA answers 1).
inline bool mpi_is_device_aware() {
  if (const char* forced = std::getenv("EBISU_MPI_DEVICE_AWARE")) return std::string(forced) == "1";
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

/// The MPI datatype of one Scalar.
template <class Scalar>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<Scalar, double>) {
    return MPI_DOUBLE;
  } else if constexpr (std::is_same_v<Scalar, float>) {
    return MPI_FLOAT;
  } else {
    static MPI_Datatype bytes = [] {
      MPI_Datatype t;
      check_mpi(MPI_Type_contiguous(static_cast<int>(sizeof(Scalar)), MPI_BYTE, &t), "MPI_Type_contiguous");
      check_mpi(MPI_Type_commit(&t), "MPI_Type_commit");
      return t;
    }();
    return bytes;
  }
}

/// A box of a rank-N index space: [begin[a], begin[a] + extent[a]) along each index.
struct Box {
  std::array<std::int64_t, 3> begin{{0, 0, 0}};
  std::array<std::int64_t, 3> extent{{1, 1, 1}};
  std::int64_t cells() const { return extent[0] * extent[1] * extent[2]; }
};

template <class ViewType>
using ContiguousView = Kokkos::View<typename ViewType::non_const_data_type, typename ViewType::array_layout,
                                    typename ViewType::memory_space>;

template <class BufferType>
BufferType allocate_box(const std::string& label, const Box& box) {
  constexpr int rank = view_rank<BufferType>;
  const auto n = [&](int a) { return static_cast<std::size_t>(box.extent[a]); };
  const auto alloc = Kokkos::view_alloc(Kokkos::WithoutInitializing, label);
  if constexpr (rank == 1) return BufferType(alloc, n(0));
  if constexpr (rank == 2) return BufferType(alloc, n(0), n(1));
  if constexpr (rank == 3) return BufferType(alloc, n(0), n(1), n(2));
}

template <class ViewType>
auto box_of(const ViewType& v, const Box& box) {
  const auto range = [&](int a) {
    return Kokkos::pair<std::int64_t, std::int64_t>(box.begin[a], box.begin[a] + box.extent[a]);
  };
  constexpr int rank = view_rank<ViewType>;
  if constexpr (rank == 1) return Kokkos::subview(v, range(0));
  if constexpr (rank == 2) return Kokkos::subview(v, range(0), range(1));
  if constexpr (rank == 3) return Kokkos::subview(v, range(0), range(1), range(2));
}

/// Copies box `box` of `v` into the contiguous `buffer` (same extents) on `space`.
template <class ExecSpace, class ViewType, class BufferType>
void pack(const ExecSpace& space, const BufferType& buffer, const ViewType& v, const Box& box) {
  Kokkos::deep_copy(space, buffer, box_of(v, box));
}

template <class ExecSpace, class ViewType, class BufferType>
void unpack(const ExecSpace& space, const ViewType& v, const Box& box, const BufferType& buffer) {
  Kokkos::deep_copy(space, box_of(v, box), buffer);
}

/// Host memory for staging device buffers: page-locked where the device is a
/// CUDA GPU (copies at full PCIe / NVLink-C2C speed), ordinary otherwise.
template <class MemorySpace>
struct StagingSpace {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct StagingSpace<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif

/// A contiguous buffer MPI can read or write: the buffer itself where MPI may
/// touch its memory, a host copy (page-locked where that helps) otherwise.
template <class BufferType>
class MpiBuffer {
 public:
  using memory_space = typename BufferType::memory_space;
  static constexpr bool host_accessible = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  using staging_type = Kokkos::View<typename BufferType::data_type, typename BufferType::array_layout,
                                    typename StagingSpace<memory_space>::type>;

  MpiBuffer(const BufferType& buffer, bool device_aware)
      : m_buffer(buffer),
        m_staged(!device_aware && !host_accessible),
        m_host(m_staged ? staging_like(buffer) : EbisuKokkos::Impl::unallocated_view<staging_type>()) {}
  void* data() const { return m_staged ? static_cast<void*>(m_host.data()) : static_cast<void*>(m_buffer.data()); }
  /// Elements, in units of mpi_type<value_type>().
  int count() const { return static_cast<int>(m_buffer.span()); }
  /// After packing, before sending (the caller fences before MPI reads it).
  template <class ExecSpace>
  void to_mpi(const ExecSpace& space) const {
    if (m_staged) Kokkos::deep_copy(space, m_host, m_buffer);
  }
  /// After receiving, before unpacking.
  template <class ExecSpace>
  void from_mpi(const ExecSpace& space) const {
    if (m_staged) Kokkos::deep_copy(space, m_buffer, m_host);
  }
  const BufferType& buffer() const { return m_buffer; }

 private:
  static staging_type staging_like(const BufferType& b) {
    Box box;
    for (int a = 0; a < view_rank<BufferType>; ++a) box.extent[a] = static_cast<std::int64_t>(b.extent(a));
    return allocate_box<staging_type>("EbisuKokkos::Mpi::staging", box);
  }
  BufferType m_buffer;
  bool m_staged;
  staging_type m_host;
};

/// The send and receive buffers of every side of every axis, for Views of one
/// type and the domain's local extents: made on a domain's first exchange of
/// such Views and kept with the domain (allocations per round would cost more
/// than the messages).
template <class BufferType>
struct HaloBuffers {
  std::vector<MpiBuffer<BufferType>> send, receive;  // index 2 x axis + side, where the side has a neighbour
  std::vector<int> index;                            // 2 x axis + side -> position in send / receive, or -1
};

/// Type-erased storage for HaloBuffers of any View type, shared by copies of a domain.
class HaloBufferCache {
 public:
  template <class T, class Make>
  T& get(const Make& make) {
    auto& slot = m_entries[std::type_index(typeid(T))];
    if (!slot) slot = std::make_shared<T>(make());
    return *static_cast<T*>(slot.get());
  }

 private:
  std::map<std::type_index, std::shared_ptr<void>> m_entries;
};

}  // namespace Impl
}  // namespace Mpi
}  // namespace EbisuKokkos

#endif
