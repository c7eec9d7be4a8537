#ifndef EBISU_BENCH_SPMV_VARIANT_HPP
#define EBISU_BENCH_SPMV_VARIANT_HPP

// KokkosKernels SpMV: the stencil assembled as a CrsMatrix<double, int, Device,
// void, int> over all cells in memory order (interior rows apply the stencil,
// boundary rows are identity), then T calls of spmv("N", 1, A, x, 0, y) with
// a swap, as many Trilinos users do today. Only double / int / int /
// LayoutLeft is instantiated in our KokkosKernels build.

#include "timing.hpp"
#include "variant.hpp"

#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef EBISU_BENCH_HAVE_KOKKOSKERNELS
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#endif

namespace ebisu_bench {

/// Why the SpMV variant cannot run here (empty: it can).
template <class Scalar, class Stencil>
std::string spmv_skip_reason(long long cells, long long interior, double buffers_bytes, double memory_bytes,
                             double memory_fraction) {
#ifndef EBISU_BENCH_HAVE_KOKKOSKERNELS
  return "KokkosKernels not found at configure time";
#else
  if (!std::is_same_v<Scalar, double>) return "only double is instantiated in our KokkosKernels build";
  const long long nnz = interior * Stencil::num_points + (cells - interior);
  if (nnz > INT_MAX) {
    return std::to_string(nnz) + " non-zeros exceed the int offset type (2^31-1) of our KokkosKernels build";
  }
  const double need = static_cast<double>(nnz) * (sizeof(double) + sizeof(int)) + (cells + 1.0) * sizeof(int) +
                      2.0 * cells * sizeof(double);
  if (need + buffers_bytes > memory_fraction * memory_bytes) {
    return "needs " + std::to_string(static_cast<long long>((need + buffers_bytes) / 1e9)) + " GB, over " +
           std::to_string(static_cast<int>(memory_fraction * 100)) + "% of the device memory";
  }
  return "";
#endif
}

#ifdef EBISU_BENCH_HAVE_KOKKOSKERNELS

struct SpmvCount {};
struct SpmvFill {};

template <int NP>
struct SpmvAssembly {
  using value_type = int;
  using Space = Kokkos::DefaultExecutionSpace;
  using Device = Kokkos::Device<Space, Space::memory_space>;
  using Matrix = KokkosSparse::CrsMatrix<double, int, Device, void, int>;
  using RowMap = typename Matrix::row_map_type::non_const_type;
  using Entries = typename Matrix::index_type::non_const_type;
  using Values = typename Matrix::values_type::non_const_type;

  RowMap row_map;
  Entries entries;
  Values values;
  Kokkos::Array<int, 3> ext;     // View index order
  Kokkos::Array<int, 3> stride;  // memory stride per View index
  Kokkos::Array<int, NP> delta;  // column offsets, increasing
  Kokkos::Array<double, NP> coef;
  int rank, radius;

  KOKKOS_INLINE_FUNCTION bool interior(int row) const {
    bool inside = true;
    for (int a = 0; a < rank; ++a) {
      const int i = (row / stride[a]) % ext[a];
      inside = inside && i >= radius && i < ext[a] - radius;
    }
    return inside;
  }
  // Row counts -> row_map (inclusive scan shifted by one).
  KOKKOS_INLINE_FUNCTION void operator()(SpmvCount, int row, int& update, bool final) const {
    const int count = interior(row) ? NP : 1;
    if (final) {
      if (row == 0) row_map(0) = 0;
      row_map(row + 1) = update + count;
    }
    update += count;
  }
  KOKKOS_INLINE_FUNCTION void operator()(SpmvFill, int row) const {
    const int start = row_map(row);
    if (interior(row)) {
      for (int k = 0; k < NP; ++k) {
        entries(start + k) = row + delta[k];
        values(start + k) = coef[k];
      }
    } else {
      entries(start) = row;
      values(start) = 1.0;
    }
  }
};

template <class Stencil, class View>
Variant make_spmv_variant(const Stencil& stencil, const View& input, int steps, double& assembly_seconds) {
  using Space = Kokkos::DefaultExecutionSpace;
  constexpr int rank = static_cast<int>(View::rank);
  constexpr int np = Stencil::num_points;
  using Assembly = SpmvAssembly<np>;
  using Vector = Kokkos::View<double*, Kokkos::LayoutLeft, typename Assembly::Device>;
  const int n = static_cast<int>(input.size());

  Assembly asmb;
  asmb.rank = rank;
  asmb.radius = Stencil::radius;
  for (int a = 0; a < 3; ++a) {
    asmb.ext[a] = a < rank ? static_cast<int>(input.extent(a)) : 1;
    asmb.stride[a] = a < rank ? static_cast<int>(input.stride(a)) : 1;
  }
  std::vector<std::pair<int, double>> points;
  for (int k = 0; k < np; ++k) {
    int d = 0;
    for (int a = 0; a < rank; ++a) d += Stencil::offset(k, a) * asmb.stride[a];
    points.emplace_back(d, stencil.coefficient(k));
  }
  std::sort(points.begin(), points.end());
  for (int k = 0; k < np; ++k) {
    asmb.delta[k] = points[k].first;
    asmb.coef[k] = points[k].second;
  }

  auto matrix = std::make_shared<typename Assembly::Matrix>();
  assembly_seconds = time_fenced([&] {
    asmb.row_map = typename Assembly::RowMap("ebisu_bench::spmv_row_map", n + 1);
    int nnz = 0;
    Kokkos::parallel_scan("ebisu_bench::spmv_count", Kokkos::RangePolicy<Space, SpmvCount, Kokkos::IndexType<int>>(0, n),
                          asmb, nnz);
    asmb.entries = typename Assembly::Entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ebisu_bench::spmv_entries"), nnz);
    asmb.values = typename Assembly::Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ebisu_bench::spmv_values"), nnz);
    Kokkos::parallel_for("ebisu_bench::spmv_fill", Kokkos::RangePolicy<Space, SpmvFill, Kokkos::IndexType<int>>(0, n), asmb);
    *matrix = typename Assembly::Matrix("ebisu_bench::A", n, n, nnz, asmb.values, asmb.row_map, asmb.entries);
  });

  Vector x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ebisu_bench::spmv_x"), n);
  Vector y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ebisu_bench::spmv_y"), n);
  // The input in memory order (Views are unpadded, so data() spans size() cells).
  Kokkos::View<const double*, Kokkos::LayoutLeft, typename Assembly::Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      flat_input(input.data(), n);

  Variant v;
  v.name = "kokkoskernels-spmv";
  v.family = "kokkoskernels-spmv";
  v.params = {text_param("matrix", "CrsMatrix<double,int,Device,void,int>, rows in memory order"),
              number_param("nnz", static_cast<double>(matrix->nnz())),
              number_param("assembly_s", assembly_seconds)};
  v.reset = [=]() { Kokkos::deep_copy(x, flat_input); };
  v.run = [=]() {
    Vector a = x, b = y;
    for (int s = 0; s < steps; ++s) {
      KokkosSparse::spmv("N", 1.0, *matrix, a, 0.0, b);
      std::swap(a, b);
    }
  };
  v.output = [=]() -> const void* { return steps % 2 == 0 ? x.data() : y.data(); };
  return v;
}

#endif

}  // namespace ebisu_bench

#endif
