#ifndef EBISU_KOKKOS_IMPL_SOURCE_RESPONSE_CLAIM_HPP
#define EBISU_KOKKOS_IMPL_SOURCE_RESPONSE_CLAIM_HPP

// Whether a call of the response form (SourceForm) builds g_{nd}, uses the one
// its policy kept (impl/kept_response.hpp), or runs the per-step form, and the
// buffer it uses. A kept g fits a call when everything it was computed from is
// the same: the stencil's coefficients, the View type and extents, the boundary
// rules and the depth (compared exactly, as a key) and the fields' values
// (compared by a 64-bit hash read at every call: a changed field is missed
// with probability ~2^-64). Every execution space; the backends say which
// schedules their plans allow.

#include <ebisu_kokkos/impl/kept_response.hpp>
#include <ebisu_kokkos/impl/source_response.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/stencil.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

namespace EbisuKokkos {
namespace Impl {

/// splitmix64's finaliser: every input bit reaches every output bit.
KOKKOS_INLINE_FUNCTION std::uint64_t mix_bits(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// A hash of one contiguous field: the sum over its elements of a mix of the element's bits plus a
/// multiple of its index (a sum, so that the reduction order does not matter; the index, so that moved
/// values count). One mix per element: on an H200 the pass is bound by its 64-bit multiplies.
template <class Scalar>
struct FieldHash {
  const Scalar* data;
  std::uint64_t seed;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, std::uint64_t& sum) const {
    static_assert(sizeof(Scalar) <= sizeof(std::uint64_t), "EbisuKokkos: field elements of at most 8 bytes");
    std::uint64_t bits = 0;
    memcpy(&bits, data + i, sizeof(Scalar));
    sum += mix_bits(bits + seed + i * 0x9e3779b97f4a7c15ull);
  }
};

/// The same sum in a device's form: thread t of `threads` adds elements t, t + threads, ... (coalesced,
/// many loads in flight) into its partial. Kokkos 3.4's parallel_reduce reads a field at ~1.2 TB/s on
/// an H200 (0.45 ms for 558 MB even for a plain sum); the partials' pass reads at the copy rate, and
/// their reduction is small.
template <class Scalar, class Partials>
struct FieldHashPartials {
  const Scalar* data;
  std::size_t count;
  std::size_t threads;
  std::uint64_t seed;
  Partials partial;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t t) const {
    std::uint64_t sums[4] = {0, 0, 0, 0};
    const FieldHash<Scalar> hash{data, seed};
    std::size_t i = t;
    // Four independent loads in flight per thread: one at a time leaves the pass bound by the loads'
    // latency (~1.7 TB/s on an H200).
    for (; i + 3 * threads < count; i += 4 * threads) {
      for (int k = 0; k < 4; ++k) hash(i + k * threads, sums[k]);
    }
    for (; i < count; i += threads) hash(i, sums[0]);
    partial(t) = sums[0] + sums[1] + sums[2] + sums[3];
  }
};

template <class Partials>
struct SumPartials {
  Partials partial;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t t, std::uint64_t& sum) const { sum += partial(t); }
};

/// The fields of a call, hashed on `space` (the call's stream: after what the caller queued there).
/// false where a field is not contiguous (its span has gaps): such calls keep nothing. partials: where
/// a device keeps the partial sums between calls (the policy's KeptResponse; none: allocated here).
template <class ExecSpace, class FieldSet>
bool hash_fields(const ExecSpace& space, const FieldSet& fields, std::uint64_t& hash,
                 std::shared_ptr<void>* partials = nullptr) {
  hash = mix_bits(static_cast<std::uint64_t>(FieldSet::size));
  if constexpr (FieldSet::size > 0) {
    using Scalar = typename FieldSet::view_type::non_const_value_type;
    using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::size_t>>;
    using Partials = Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space>;
    constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
    constexpr std::size_t kThreads = std::size_t(1) << 18;  // 2 MB of partials; ~2000 per SM of an H200
    for (int k = 0; k < FieldSet::size; ++k) {
      const auto& v = fields.views[k];
      if (!v.span_is_contiguous() || v.span() != v.size()) return false;
      const std::uint64_t seed = mix_bits(static_cast<std::uint64_t>(k) + 1);
      std::uint64_t sum = 0;
      if (on_host || v.span() < 4 * kThreads) {
        Kokkos::parallel_reduce("EbisuKokkos::hash_fields", Range(space, 0, v.span()), FieldHash<Scalar>{v.data(), seed},
                                sum);
      } else {
        Partials partial;
        if (partials != nullptr && *partials) partial = *static_cast<const Partials*>(partials->get());
        if (partial.extent(0) != kThreads) {
          partial = Partials(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("EbisuKokkos::hash_partials")),
                             kThreads);
          if (partials != nullptr) *partials = std::make_shared<Partials>(partial);
        }
        Kokkos::parallel_for("EbisuKokkos::hash_fields", Range(space, 0, kThreads),
                             FieldHashPartials<Scalar, Partials>{v.data(), v.span(), kThreads, seed, partial});
        Kokkos::parallel_reduce("EbisuKokkos::hash_fields:partials", Range(space, 0, kThreads),
                                SumPartials<Partials>{partial}, sum);
      }
      hash = mix_bits(hash ^ sum) + static_cast<std::uint64_t>(k);
    }
  }
  return true;
}

static_assert(kWholeCallInterval == response_over_whole_call, "EbisuKokkos: one value for the whole-call knob");

/// What the g of a schedule covers, for a call whose launches of other depths than the main one have
/// `tail_depths`.
inline ResponseSpan span_of(const ResponseSchedule& s, const std::vector<int>& tail_depths) {
  return ResponseSpan{s.interval, s.whole_call ? tail_depths : std::vector<int>{}};
}

/// The report's account of a call of the response form (the backends add their kernels' shapes).
/// with_source: the depths of the launches after the groups that run the source kernel.
inline std::string describe_response_form(const ResponseSpan& span, int depth, long groups, const std::string& note,
                                          const std::vector<int>& with_source) {
  const auto depths = [](const std::vector<int>& ds) {
    std::string text;
    for (const int d : ds) text += " " + std::to_string(d);
    return text;
  };
  int steps = span.interval * depth;
  for (const int d : span.folded) steps += d;
  std::string text = "source response form: g_" + std::to_string(steps) + " from " +
                     std::to_string(span.interval + static_cast<int>(span.folded.size())) +
                     " launch(es) of the source kernel (" + note + "); then ";
  if (!span.folded.empty()) {
    text += std::to_string(span.folded.size()) + " launch(es) of the source-free kernel (depths" + depths(span.folded) +
            "), ";
  }
  text += std::to_string(groups) + " group(s) of " + std::to_string(span.interval) + " launch(es) of depth " +
          std::to_string(depth) + " of the source-free kernel, the last adding it";
  if (!with_source.empty()) {
    text += "; then " + std::to_string(with_source.size()) + " launch(es) with the source (depths" + depths(with_source) + ")";
  }
  return text;
}

/// Everything g_{nd} depends on besides n and the fields' values.
template <class Response, class Stencil, class ViewType, class ExecSpace>
std::string response_key(const StencilPolicy<ExecSpace>& policy, const Stencil& stencil, const ViewType& u, int depth) {
  std::string key = std::string(typeid(Stencil).name()) + "|" + typeid(Response).name() + "|";
  for (int a = 0; a < static_cast<int>(ViewType::rank); ++a) key += std::to_string(u.extent(a)) + "x";
  for (const auto& axis : policy.boundaries().side) key += std::string("|") + to_string(axis[0]) + to_string(axis[1]);
  key += "|d" + std::to_string(depth) + "|";
  const auto linear = LinearPlusSource<Stencil>::linear_part(stencil);
  for (int k = 0; k < linear.num_points; ++k) {  // the coefficients' bits: equal values, equal keys
    const double c = linear.coefficient(k);
    char bits[sizeof(double)];
    std::memcpy(bits, &c, sizeof(double));
    key.append(bits, sizeof(double));
  }
  return key;
}

/// Counts a call where the response form may run, whichever form runs it: the plans share a kept build
/// over the loop's calls so far (KeptState), also before a kept response first pays.
template <class Response, class ExecSpace, class Stencil, class ViewType>
void count_source_call(const StencilPolicy<ExecSpace>& policy, const Stencil& stencil, const ViewType& u) {
  PolicyAccess::kept_response(policy).count_call(response_key<Response>(policy, stencil, u, 0), policy.steps());
}

/// What a call of the response form does. run false: the per-step form (note says why).
template <class Response>
struct ResponseClaim {
  bool run = false;
  bool set_up = false;  ///< g must be computed into `response` before the groups
  ResponseSpan span;    ///< what g covers
  Response response;
  std::string note;
};

/// per_call: the span of the plan's per-call schedule (interval 0: building g for this call alone
/// does not pay); kept_schedule: of its kept schedule (interval 0: a kept g does not pay either).
template <class Response, class ExecSpace, class Stencil, class ViewType, class FieldSet>
ResponseClaim<Response> claim_source_response(const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                                              const ViewType& u, const FieldSet& fields, int depth,
                                              const ResponseSpan& per_call, const ResponseSpan& kept_schedule) {
  ResponseClaim<Response> claim;
  const int per_call_interval = per_call.interval;
  const auto allocate = [&](const ResponseSpan& span) {
    claim.span = span;
    claim.set_up = true;
    try {
      claim.response = Response(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("EbisuKokkos::source_response")),
                                u.layout());
      claim.run = true;
    } catch (const std::exception& e) {  // no room: the per-step form needs none
      claim.note = std::string("the source response form's buffer was refused (") + e.what() + ")";
    }
  };
  KeptResponse& kept = PolicyAccess::kept_response(policy);
  count_source_call<Response>(policy, stencil, u);
  std::lock_guard<std::mutex> lock(kept.mutex);  // (calls on one policy from several threads wait here)
  const std::string key = response_key<Response>(policy, stencil, u, depth);
  const bool seen = kept.key == key;
  if (!seen) {
    kept.key = key;
    kept.hash_known = false;
    kept.buffer.reset();
    kept.span = ResponseSpan{};
    if (per_call_interval == 0) {
      // The first call of its kind: nothing is hashed (a policy built for each call never pays for it);
      // a loop's second call builds the response and keeps it.
      claim.note = "the first call with this stencil and domain (a loop's next call builds the response and keeps it)";
      return claim;
    }
  }
  std::uint64_t hash = 0;
  if (!hash_fields(policy.space(), fields, hash, &kept.hash_partials)) {
    kept.key.clear();
    if (per_call_interval > 0) allocate(per_call);
    if (!claim.run && claim.note.empty()) claim.note = "a field is not contiguous (nothing kept between calls)";
    return claim;
  }
  const auto keep = [&](const char* note) {
    kept.fields_hash = hash;
    kept.hash_known = true;
    if (!claim.run) return;
    kept.depth = depth;
    kept.span = claim.span;
    kept.buffer = std::make_shared<Response>(claim.response);
    claim.note = note;
  };
  // The span a kept response should have: the kept schedule's where the plan has one (the loop's
  // steady state), else the per-call one.
  const ResponseSpan& wanted = kept_schedule.interval > 0 ? kept_schedule : per_call;
  const bool same_fields = kept.hash_known && kept.fields_hash == hash;
  if (same_fields && kept.buffer && kept.depth == depth && kept.span == wanted) {
    claim.run = true;
    claim.span = kept.span;
    claim.response = *static_cast<const Response*>(kept.buffer.get());
    claim.note = "g kept from an earlier call";
    return claim;
  }
  kept.buffer.reset();
  kept.span = ResponseSpan{};
  if (seen && (same_fields || !kept.hash_known) && wanted.interval > 0) {
    // A loop's second call (the fields' values of the first were not hashed: g is built from these), or a
    // call that wants another interval: build the response for it and the calls after it.
    allocate(wanted);
    keep("g built and kept for the next calls");
  } else if (per_call_interval > 0) {  // first call, or other field values: worth building for this call
    allocate(per_call);
    keep("g built (and kept)");
  } else {
    keep("");
    claim.note = "the fields changed since the last call (per step; the next call with these values builds)";
  }
  return claim;
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
