#ifndef EBISU_KOKKOS_IMPL_KEPT_RESPONSE_HPP
#define EBISU_KOKKOS_IMPL_KEPT_RESPONSE_HPP

// What a StencilPolicy keeps between calls (it and its copies share one): the
// source's response g_{nd} of the last call that built one (SourceForm,
// impl/source_response.hpp), and what it was computed from. A time loop that
// calls parallel_stencil with the same policy, stencil and source builds g once
// instead of at every call; a call whose fields hash differently (or whose
// stencil, extents, boundaries or depth differ) does not use it. Pure C++: the
// buffer is type-erased here and typed by impl/source_response_claim.hpp.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace EbisuKokkos {
namespace Impl {

struct KeptResponse {
  std::mutex mutex;
  /// What g depends on besides the interval and the fields' values (the stencil's coefficients, the
  /// View type and extents, the boundary rules, the depth); empty: no call seen.
  std::string key;
  std::uint64_t fields_hash = 0;  ///< of the last call with this key that hashed them
  bool hash_known = false;        ///< (the first call of a key hashes nothing)
  int depth = 0;                  ///< of the kept g (with interval)
  int interval = 0;               ///< n of the kept g_{nd}; 0: none kept
  std::shared_ptr<void> buffer;   ///< owns the View that holds g
  std::shared_ptr<void> hash_partials;  ///< the fields' hash's partial sums on a device (2 MB)

  /// The interval of a kept g of this depth (0: none), for the plans to prefer.
  int kept_interval(int of_depth) {
    std::lock_guard<std::mutex> lock(mutex);
    return buffer && depth == of_depth ? interval : 0;
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    key.clear();
    fields_hash = 0;
    hash_known = false;
    depth = interval = 0;
    buffer.reset();
    hash_partials.reset();
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
