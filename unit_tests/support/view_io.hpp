#ifndef EBISU_KOKKOS_TEST_VIEW_IO_HPP
#define EBISU_KOKKOS_TEST_VIEW_IO_HPP

// Moving reference Fields in and out of device Views of any rank and layout,
// always by logical index so layouts cannot hide a transposition.

#include "reference.hpp"

#include <Kokkos_Core.hpp>

#include <limits>

namespace ebisu_test {

template <class Scalar, int Rank>
struct DataType;
template <class Scalar>
struct DataType<Scalar, 1> { using type = Scalar*; };
template <class Scalar>
struct DataType<Scalar, 2> { using type = Scalar**; };
template <class Scalar>
struct DataType<Scalar, 3> { using type = Scalar***; };

template <class Scalar, int Rank, class Layout, class Space>
using TestView = Kokkos::View<typename DataType<Scalar, Rank>::type, Layout, typename Space::memory_space>;

template <class ViewType>
ViewType make_view(const std::string& label, const Extents& n) {
  constexpr int rank = static_cast<int>(ViewType::rank);
  if constexpr (rank == 1) return ViewType(label, n[0]);
  else if constexpr (rank == 2) return ViewType(label, n[0], n[1]);
  else return ViewType(label, n[0], n[1], n[2]);
}

template <class ViewType>
void upload(const ViewType& v, const Field& f) {
  constexpr int rank = static_cast<int>(ViewType::rank);
  auto h = Kokkos::create_mirror_view(v);
  for (int i0 = 0; i0 < f.n[0]; ++i0)
    for (int i1 = 0; i1 < f.n[1]; ++i1)
      for (int i2 = 0; i2 < f.n[2]; ++i2) {
        using T = typename ViewType::non_const_value_type;
        const T x = static_cast<T>(f.at(i0, i1, i2));
        if constexpr (rank == 1) h(i0) = x;
        else if constexpr (rank == 2) h(i0, i1) = x;
        else h(i0, i1, i2) = x;
      }
  Kokkos::deep_copy(v, h);
}

template <class ViewType>
Field download(const ViewType& v) {
  constexpr int rank = static_cast<int>(ViewType::rank);
  Field f;
  f.n = {static_cast<int>(v.extent(0)), rank >= 2 ? static_cast<int>(v.extent(1)) : 1,
         rank >= 3 ? static_cast<int>(v.extent(2)) : 1};
  f.v.resize(v.size());
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  for (int i0 = 0; i0 < f.n[0]; ++i0)
    for (int i1 = 0; i1 < f.n[1]; ++i1)
      for (int i2 = 0; i2 < f.n[2]; ++i2) {
        if constexpr (rank == 1) f.at(i0, i1, i2) = h(i0);
        else if constexpr (rank == 2) f.at(i0, i1, i2) = h(i0, i1);
        else f.at(i0, i1, i2) = h(i0, i1, i2);
      }
  return f;
}

// Poisons a work View so that a cell the library forgets to write shows up as NaN.
template <class ViewType>
void poison(const ViewType& v) {
  Kokkos::deep_copy(v, std::numeric_limits<typename ViewType::non_const_value_type>::quiet_NaN());
}

template <class Scalar>
constexpr double tolerance() {
  return std::is_same_v<Scalar, float> ? 5e-5 : 1e-11;
}

}  // namespace ebisu_test

#endif
