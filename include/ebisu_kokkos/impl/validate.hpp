#ifndef EBISU_KOKKOS_IMPL_VALIDATE_HPP
#define EBISU_KOKKOS_IMPL_VALIDATE_HPP

// Argument checks of parallel_stencil: compile-time ones as static_asserts,
// run-time ones as std::invalid_argument naming the argument. All of them run
// before anything is launched, so a rejected call never touches the data.

#include <ebisu_kokkos/fields.hpp>
#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/stencil.hpp>

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace EbisuKokkos {
namespace Impl {

template <class T>
struct is_fields : std::false_type {};
template <class... Fs>
struct is_fields<Fields<Fs...>> : std::true_type {};

template <class ExecSpace, class Stencil, class ViewType, class ScratchType>
constexpr void check_types() {
  static_assert(is_stencil<Stencil>::value,
                "EbisuKokkos::parallel_stencil: the stencil argument must be a LinearStencil or FunctorStencil");
  static_assert(!is_fields<ScratchType>::value,
                "EbisuKokkos::parallel_stencil: fields(...) go after the scratch View (or after a DoubleBuffer): "
                "parallel_stencil(label, policy, stencil, u, scratch, fields(...))");
  static_assert(Kokkos::is_view<ViewType>::value && Kokkos::is_view<ScratchType>::value,
                "EbisuKokkos::parallel_stencil: u and scratch must be Kokkos::Views");
  static_assert(view_rank<ViewType> == Stencil::rank,
                "EbisuKokkos::parallel_stencil: the View's rank must equal the stencil's rank");
  static_assert(std::is_same_v<typename ViewType::non_const_value_type, double> ||
                    std::is_same_v<typename ViewType::non_const_value_type, float>,
                "EbisuKokkos::parallel_stencil: the value type must be double or float");
  static_assert(!std::is_const_v<typename ViewType::value_type> && !std::is_const_v<typename ScratchType::value_type>,
                "EbisuKokkos::parallel_stencil: u and scratch must be writable (non-const) Views");
  static_assert(std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutLeft> ||
                    std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>,
                "EbisuKokkos::parallel_stencil: unsupported layout; use LayoutLeft or LayoutRight");
  static_assert(std::is_same_v<typename ViewType::non_const_value_type, typename ScratchType::non_const_value_type> &&
                    std::is_same_v<typename ViewType::array_layout, typename ScratchType::array_layout> &&
                    std::is_same_v<typename ViewType::memory_space, typename ScratchType::memory_space>,
                "EbisuKokkos::parallel_stencil: u and scratch must have the same value type, layout and memory space");
  static_assert(is_accessible_from<ExecSpace, typename ViewType::memory_space>,
                "EbisuKokkos::parallel_stencil: the Views' memory space is not accessible from the policy's "
                "execution space");
}

template <class ViewType>
std::string extents_string(const ViewType& v) {
  std::ostringstream s;
  s << '(';
  for (int a = 0; a < view_rank<ViewType>; ++a) s << (a ? ", " : "") << v.extent(a);
  s << ')';
  return s.str();
}

[[noreturn]] inline void invalid(const std::string& label, const std::string& what) {
  throw std::invalid_argument("EbisuKokkos::parallel_stencil(\"" + label + "\"): " + what);
}

template <class Stencil, class ViewType, class ScratchType>
void check_arguments(const std::string& label, int steps, const ViewType& u, const ScratchType& scratch) {
  constexpr int rank = view_rank<ViewType>;
  constexpr int radius = Stencil::radius;
  if (steps < 0) invalid(label, "policy steps must be >= 0, got " + std::to_string(steps));
  if (u.data() == nullptr) invalid(label, "u is not allocated");
  if (scratch.data() == nullptr) invalid(label, "scratch is not allocated");
  for (int a = 0; a < rank; ++a) {
    if (u.extent(a) != scratch.extent(a)) {
      invalid(label, "u has extents " + extents_string(u) + " but scratch has extents " + extents_string(scratch));
    }
  }
  for (int a = 0; a < rank; ++a) {
    if (static_cast<long long>(u.extent(a)) < 2LL * radius + 1) {
      invalid(label, "stencil radius " + std::to_string(radius) + " is too large for u's extent " +
                         std::to_string(u.extent(a)) + " along index " + std::to_string(a) + " (needs at least " +
                         std::to_string(2 * radius + 1) + ")");
    }
  }
  // Domains may exceed 2^31 cells (offsets into a View are 64-bit in every
  // path); one index runs in 32 bits, so each extent must stay below 2^31.
  for (int a = 0; a < rank; ++a) {
    if (u.extent(a) > static_cast<size_t>(INT32_MAX)) {
      invalid(label, "u's extent " + std::to_string(u.extent(a)) + " along index " + std::to_string(a) +
                         " exceeds 2^31-1 (the most along one index)");
    }
  }
  using T = typename ViewType::value_type;
  const auto* u_begin = reinterpret_cast<const char*>(u.data());
  const auto* u_end = u_begin + u.span() * sizeof(T);
  const auto* s_begin = reinterpret_cast<const char*>(scratch.data());
  const auto* s_end = s_begin + scratch.span() * sizeof(T);
  if (u_begin < s_end && s_begin < u_end) {
    invalid(label, "u and scratch alias (their memory overlaps); scratch must be a separate View");
  }
}

// Boundary rules: only on the View's indices, periodic on both sides of an axis.
template <int Rank>
void check_boundaries(const std::string& label, const BoundaryRules& rules) {
  for (int a = 0; a < 3; ++a) {
    const Boundary lo = rules.side[a][0], hi = rules.side[a][1];
    if (a >= Rank && (lo != Boundary::fixed || hi != Boundary::fixed)) {
      invalid(label, "a boundary rule is set on index " + std::to_string(a) + " of a rank-" + std::to_string(Rank) +
                         " View");
    }
    if ((lo == Boundary::periodic) != (hi == Boundary::periodic)) {
      invalid(label, std::string("index ") + std::to_string(a) + " is periodic on one side only (low: " +
                         to_string(lo) + ", high: " + to_string(hi) + "); periodic needs both sides");
    }
  }
}

// Read-only fields, at compile time: a field is a View of u's rank, value
// type (const allowed), layout and memory space, which the execution space
// can access. (An argument that is no View at all: fields() has said so.)
template <class ExecSpace, class ViewType, class Field,
          class F = typename FieldArgument<Field>::view_type>
constexpr void check_field_type() {
  if constexpr (FieldArgument<Field>::valid) {
    static_assert(view_rank<F> == view_rank<ViewType>,
                  "EbisuKokkos::parallel_stencil: a field must have the rank of u");
    static_assert(std::is_same_v<typename F::non_const_value_type, typename ViewType::non_const_value_type>,
                  "EbisuKokkos::parallel_stencil: a field must have u's value type (const data is fine)");
    static_assert(std::is_same_v<typename F::array_layout, typename ViewType::array_layout>,
                  "EbisuKokkos::parallel_stencil: a field must have u's layout");
    static_assert(is_accessible_from<ExecSpace, typename F::memory_space>,
                  "EbisuKokkos::parallel_stencil: a field's memory space is not accessible from the policy's "
                  "execution space");
    static_assert(std::is_same_v<typename F::memory_space, typename ViewType::memory_space>,
                  "EbisuKokkos::parallel_stencil: a field must be in u's memory space");
  }
}

template <class ExecSpace, class ViewType, class... Fs>
constexpr void check_field_types(const Fields<Fs...>*) {
  (check_field_type<ExecSpace, ViewType, Fs>(), ...);
}

inline bool overlaps(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto* a0 = static_cast<const char*>(a);
  const auto* b0 = static_cast<const char*>(b);
  return a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

// Read-only fields, at run time: allocated, u's extents, no overlap with u or
// scratch (a field is read while they are written). Field k is named by its
// position in fields(...) and its label.
template <class ViewType, class ScratchType, class F>
void check_field(const std::string& label, const ViewType& u, const ScratchType& scratch, const F& f, int k) {
  using T = typename ViewType::non_const_value_type;
  const std::string name = "field " + std::to_string(k) + " (\"" + f.label() + "\")";
  if (f.data() == nullptr) invalid(label, name + " is not allocated");
  for (int a = 0; a < view_rank<ViewType>; ++a) {
    if (f.extent(a) != u.extent(a)) {
      invalid(label, name + " has extents " + extents_string(f) + " but u has extents " + extents_string(u));
    }
  }
  const std::size_t bytes = f.span() * sizeof(T);
  if (overlaps(f.data(), bytes, u.data(), u.span() * sizeof(T))) {
    invalid(label, name + " aliases u (their memory overlaps); a field is read-only and must be a separate View");
  }
  if (overlaps(f.data(), bytes, scratch.data(), scratch.span() * sizeof(T))) {
    invalid(label, name + " aliases scratch (their memory overlaps); a field is read-only and must be a separate View");
  }
}

template <class ViewType, class ScratchType, class... Fs>
void check_fields(const std::string& label, const ViewType& u, const ScratchType& scratch, const Fields<Fs...>& fields) {
  int k = 0;
  const auto check_one = [&](const auto& argument) {
    using Argument = std::decay_t<decltype(argument)>;
    if constexpr (field_matches<ViewType, Argument>()) {  // else a static_assert has failed
      check_field(label, u, scratch, FieldArgument<Argument>::view(argument), k);
    }
    ++k;
  };
  std::apply([&](const auto&... argument) { (check_one(argument), ...); }, fields.arguments());
}

// Several state fields / time levels (state.hpp), at compile time: a functor
// stencil taking one Neighbors per field and level (then the read-only
// fields) and returning a Scalar for one field, Kokkos::Array<Scalar,
// NumFields> for several. StepKinds: the kinds of everything the functor
// takes after its first Neighbors (FieldViews<..., Kinds...>).
template <class Stencil, class Scalar, int NumFields, class StepKinds>
struct StateStencilCheck;
template <class Stencil, class Scalar, int NumFields, class V, class... Kinds>
struct StateStencilCheck<Stencil, Scalar, NumFields, FieldViews<V, Kinds...>> {
  static constexpr void check() {
    static_assert(!Stencil::is_linear,
                  "EbisuKokkos::parallel_stencil: several state fields or time levels need a functor stencil "
                  "(make_stencil<Rank, Radius>) that takes one Neighbors per field and level");
    if constexpr (!Stencil::is_linear) {
      using Evaluator = typename Stencil::template Evaluator<Scalar, Kinds...>;
      static_assert(Evaluator::callable,
                    "EbisuKokkos::parallel_stencil: with a State<View, NumFields, NumLevels> the stencil functor must "
                    "take `const Neighbors<Scalar, Rank, Radius>&` for every field at every level (field 0's levels "
                    "newest first, then field 1's, ...; a level other than field 0's newest may be taken as a "
                    "Scalar, its value at the cell), then the read-only fields as usual");
      using Result = typename Evaluator::result_type;
      if constexpr (NumFields == 1) {
        static_assert(std::is_convertible_v<Result, Scalar>,
                      "EbisuKokkos::parallel_stencil: a stencil over one field returns its new value (a Scalar)");
      } else {
        static_assert(std::is_same_v<Result, Kokkos::Array<Scalar, static_cast<std::size_t>(NumFields)>>,
                      "EbisuKokkos::parallel_stencil: a stencil over several state fields returns "
                      "Kokkos::Array<Scalar, NumFields>, the new value of each field in order");
      }
    }
  }
};

template <class ViewType>
std::string state_buffer_name(int f, int l, int num_levels) {
  return "state buffer (field " + std::to_string(f) + (l < num_levels ? ", level " + std::to_string(l) : ", spare") + ")";
}

// Several state fields / time levels, at run time: every buffer allocated,
// of the first one's extents, and no two overlapping (each is written while
// others are read); read-only fields overlap none of them. `buffer(f, j)` is
// field f's j-th buffer as given (its levels newest first, then its spare).
template <class ViewType, class Buffer, class... Fs>
void check_state(const std::string& label, int num_fields, int num_levels, const Buffer& buffer,
                 const Fields<Fs...>& fields) {
  using T = typename ViewType::non_const_value_type;
  const int per_field = num_levels + 1;
  const ViewType& first = buffer(0, 0);
  for (int b = 0; b < num_fields * per_field; ++b) {
    const ViewType& v = buffer(b / per_field, b % per_field);
    const std::string name = state_buffer_name<ViewType>(b / per_field, b % per_field, num_levels);
    if (v.data() == nullptr) invalid(label, name + " is not allocated");
    for (int a = 0; a < view_rank<ViewType>; ++a) {
      if (v.extent(a) != first.extent(a)) {
        invalid(label, name + " has extents " + extents_string(v) + " but field 0's newest level has extents " +
                           extents_string(first));
      }
    }
    for (int c = 0; c < b; ++c) {
      const ViewType& w = buffer(c / per_field, c % per_field);
      if (overlaps(v.data(), v.span() * sizeof(T), w.data(), w.span() * sizeof(T))) {
        invalid(label, name + " aliases " + state_buffer_name<ViewType>(c / per_field, c % per_field, num_levels) +
                           " (their memory overlaps); every field and level needs its own View");
      }
    }
  }
  int k = 0;
  const auto check_one = [&](const auto& argument) {
    using Argument = std::decay_t<decltype(argument)>;
    if constexpr (field_matches<ViewType, Argument>()) {  // else a static_assert has failed
      const auto& f = FieldArgument<Argument>::view(argument);
      const std::string name = "field " + std::to_string(k) + " (\"" + f.label() + "\")";
      if (f.data() == nullptr) invalid(label, name + " is not allocated");
      for (int a = 0; a < view_rank<ViewType>; ++a) {
        if (f.extent(a) != first.extent(a)) {
          invalid(label, name + " has extents " + extents_string(f) + " but the state has extents " +
                             extents_string(first));
        }
      }
      for (int b = 0; b < num_fields * per_field; ++b) {
        const ViewType& v = buffer(b / per_field, b % per_field);
        if (overlaps(f.data(), f.span() * sizeof(T), v.data(), v.span() * sizeof(T))) {
          invalid(label, name + " aliases " + state_buffer_name<ViewType>(b / per_field, b % per_field, num_levels) +
                             " (their memory overlaps); a field is read-only and must be a separate View");
        }
      }
    }
    ++k;
  };
  std::apply([&](const auto&... argument) { (check_one(argument), ...); }, fields.arguments());
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
