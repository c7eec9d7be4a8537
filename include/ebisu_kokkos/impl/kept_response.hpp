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
#include <vector>

namespace EbisuKokkos {
namespace Impl {

/// The launches a response g covers: `interval` launches of the main depth and, for a whole-call
/// response, the call's launches of other depths (`folded`, their depths; empty: g is added every
/// `interval` launches). interval 0: none.
struct ResponseSpan {
  int interval = 0;
  std::vector<int> folded;
  friend bool operator==(const ResponseSpan& a, const ResponseSpan& b) {
    return a.interval == b.interval && a.folded == b.folded;
  }
  friend bool operator!=(const ResponseSpan& a, const ResponseSpan& b) { return !(a == b); }
};

struct KeptResponse {
  std::mutex mutex;
  /// What g depends on besides the interval and the fields' values (the stencil's coefficients, the
  /// View type and extents, the boundary rules, the depth); empty: no call seen.
  std::string key;
  std::uint64_t fields_hash = 0;  ///< of the last call with this key that hashed them
  bool hash_known = false;        ///< (the first call of a key hashes nothing)
  int depth = 0;                  ///< of the kept g (with span)
  ResponseSpan span;              ///< what the kept g covers; interval 0: none kept
  /// A loop's length so far, for the build's share: the calls in a row with one loop key (the key without
  /// the depth), whichever form ran them, and the last of them in a row with one step count (a whole-call
  /// response fits only those).
  std::string loop_key;
  long calls = 0;
  int last_steps = 0;
  long same_steps_calls = 0;
  std::shared_ptr<void> buffer;   ///< owns the View that holds g
  std::shared_ptr<void> hash_partials;  ///< the fields' hash's partial sums on a device (2 MB)

  /// What a kept g of this depth covers (interval 0: none), for the plans to prefer.
  ResponseSpan kept_span(int of_depth) {
    std::lock_guard<std::mutex> lock(mutex);
    return buffer && depth == of_depth ? span : ResponseSpan{};
  }
  int kept_interval(int of_depth) { return kept_span(of_depth).interval; }
  struct LoopLength {
    long calls = 0;                 ///< of the loop so far
    long calls_of_these_steps = 0;  ///< the last of them in a row with this step count
  };
  LoopLength loop_length(int steps) {
    std::lock_guard<std::mutex> lock(mutex);
    return {calls, steps == last_steps ? same_steps_calls : 0};
  }
  void count_call(const std::string& of_loop, int steps) {
    std::lock_guard<std::mutex> lock(mutex);
    const bool same_loop = of_loop == loop_key;
    calls = same_loop ? calls + 1 : 1;
    same_steps_calls = same_loop && steps == last_steps ? same_steps_calls + 1 : 1;
    loop_key = of_loop;
    last_steps = steps;
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    key.clear();
    fields_hash = 0;
    hash_known = false;
    depth = 0;
    span = ResponseSpan{};
    loop_key.clear();
    calls = same_steps_calls = 0;
    last_steps = 0;
    buffer.reset();
    hash_partials.reset();
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
