#ifndef EBISU_KOKKOS_TEST_REFERENCE_HPP
#define EBISU_KOKKOS_TEST_REFERENCE_HPP

// An independent host reference: a plain triple loop in long double over an
// explicit offset list. It shares nothing with the library's offset machinery,
// so a wrong offset, a transposed index or a mis-ordered coefficient in the
// library shows up as a mismatch.

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace ebisu_test {

using Offset = std::array<int, 3>;
using Extents = std::array<int, 3>;  // unused trailing extents are 1

struct Field {
  Extents n{1, 1, 1};
  std::vector<long double> v;
  long double& at(int i0, int i1, int i2) { return v[(static_cast<size_t>(i0) * n[1] + i1) * n[2] + i2]; }
  long double at(int i0, int i1, int i2) const { return v[(static_cast<size_t>(i0) * n[1] + i1) * n[2] + i2]; }
};

// Values exactly representable in float, in [0.25, 1.25): both precisions
// start from the same data and nothing is zero.
inline Field random_field(Extents n, unsigned seed) {
  Field f;
  f.n = n;
  f.v.resize(static_cast<size_t>(n[0]) * n[1] * n[2]);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(0.25f, 1.25f);
  for (auto& x : f.v) x = static_cast<long double>(dist(gen));
  return f;
}

// One cell update given its neighbourhood reader nb(d0, d1, d2).
using Update = std::function<long double(const std::function<long double(int, int, int)>&)>;

inline Field reference_run(const Field& init, int rank, int radius, const Update& update, int steps) {
  Field a = init, b = init;
  const int lo0 = radius, hi0 = init.n[0] - radius;
  const int lo1 = rank >= 2 ? radius : 0, hi1 = rank >= 2 ? init.n[1] - radius : 1;
  const int lo2 = rank >= 3 ? radius : 0, hi2 = rank >= 3 ? init.n[2] - radius : 1;
  for (int s = 0; s < steps; ++s) {
    for (int i0 = lo0; i0 < hi0; ++i0)
      for (int i1 = lo1; i1 < hi1; ++i1)
        for (int i2 = lo2; i2 < hi2; ++i2) {
          auto nb = [&](int d0, int d1, int d2) { return a.at(i0 + d0, i1 + d1, i2 + d2); };
          b.at(i0, i1, i2) = update(nb);
        }
    std::swap(a, b);
  }
  return a;
}

inline Update linear_update(const std::vector<Offset>& offsets, const std::vector<long double>& coefficients) {
  return [offsets, coefficients](const std::function<long double(int, int, int)>& nb) {
    long double sum = 0;
    for (size_t k = 0; k < offsets.size(); ++k) sum += coefficients[k] * nb(offsets[k][0], offsets[k][1], offsets[k][2]);
    return sum;
  };
}

// Every offset of the (2r+1)^rank box in lexicographic order (d0 slowest).
inline std::vector<Offset> box_offsets(int rank, int r) {
  std::vector<Offset> o;
  const int r1 = rank >= 2 ? r : 0, r2 = rank >= 3 ? r : 0;
  for (int a = -r; a <= r; ++a)
    for (int b = -r1; b <= r1; ++b)
      for (int c = -r2; c <= r2; ++c) o.push_back({a, b, c});
  return o;
}

// The suite's offset lists written out by hand, in lexicographic order.
inline std::vector<Offset> preset_offsets(const std::string& name) {
  if (name == "j1d3pt") return {{-1, 0, 0}, {0, 0, 0}, {1, 0, 0}};
  if (name == "j1d5pt") return {{-2, 0, 0}, {-1, 0, 0}, {0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  if (name == "j2d5pt") return {{-1, 0, 0}, {0, -1, 0}, {0, 0, 0}, {0, 1, 0}, {1, 0, 0}};
  if (name == "j2d9pt")
    return {{-2, 0, 0}, {-1, 0, 0}, {0, -2, 0}, {0, -1, 0}, {0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {1, 0, 0}, {2, 0, 0}};
  if (name == "j2d9pt-gol") return box_offsets(2, 1);
  if (name == "j2d25pt") return box_offsets(2, 2);
  if (name == "j3d7pt") return {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
  if (name == "j3d13pt")
    return {{-2, 0, 0}, {-1, 0, 0}, {0, -2, 0}, {0, -1, 0}, {0, 0, -2}, {0, 0, -1}, {0, 0, 0},
            {0, 0, 1},  {0, 0, 2},  {0, 1, 0},  {0, 2, 0},  {1, 0, 0},  {2, 0, 0}};
  if (name == "j3d17pt")
    return {{-1, -1, -1}, {-1, -1, 1}, {-1, 1, -1}, {-1, 1, 1}, {0, -1, -1}, {0, -1, 0}, {0, -1, 1}, {0, 0, -1}, {0, 0, 0},
            {0, 0, 1},    {0, 1, -1},  {0, 1, 0},   {0, 1, 1},  {1, -1, -1}, {1, -1, 1}, {1, 1, -1}, {1, 1, 1}};
  if (name == "j3d27pt") return box_offsets(3, 1);
  if (name == "poisson") {  // the 3x3x3 box without its 8 corners
    std::vector<Offset> o;
    for (const auto& d : box_offsets(3, 1))
      if (!(std::abs(d[0]) == 1 && std::abs(d[1]) == 1 && std::abs(d[2]) == 1)) o.push_back(d);
    return o;
  }
  return {};
}

// The documented default weights: (1 + 0.37 * ((11 k) mod N)) / sum.
inline std::vector<long double> documented_weights(int n) {
  std::vector<long double> w(n);
  long double sum = 0;
  for (int k = 0; k < n; ++k) sum += (w[k] = 1.0L + 0.37L * ((11 * k) % n));
  for (auto& x : w) x /= sum;
  return w;
}

// ---- Read-only fields -------------------------------------------------------
// One cell update given the state's neighbourhood reader and one reader per
// read-only field, all around the same cell: u(d0, d1, d2), fields[k](d0, d1, d2).
using Reader = std::function<long double(int, int, int)>;
using FieldsUpdate = std::function<long double(const Reader& u, const std::vector<Reader>& fields)>;

// What each side of each index does, spelled here independently of the library:
// fixed keeps the `radius` cells at the side; periodic wraps (modulo); mirror
// reflects about the edge face (cell -1 reads cell 0).
enum class Edge { fixed, periodic, mirror };
using Edges = std::array<std::array<Edge, 2>, 3>;

inline Edges edges_all(Edge e) { return {{{e, e}, {e, e}, {e, e}}}; }

// T steps of `update`; the fields never change, and every read beyond a
// periodic or mirror side (of the state or of a field) goes through the same rule.
inline Field reference_run_with_fields(const Field& init, const std::vector<Field>& fields, int rank, int radius,
                                       const FieldsUpdate& update, int steps,
                                       const Edges& edges = edges_all(Edge::fixed)) {
  Field a = init, b = init;
  auto updated = [&](int axis, int i) {
    if (axis >= rank) return true;
    const int n = init.n[axis];
    return !((edges[axis][0] == Edge::fixed && i < radius) || (edges[axis][1] == Edge::fixed && i >= n - radius));
  };
  auto source = [&](int axis, int j) {
    const int n = init.n[axis];
    if (axis >= rank || (j >= 0 && j < n)) return j;
    const Edge e = edges[axis][j < 0 ? 0 : 1];
    if (e == Edge::periodic) return ((j % n) + n) % n;
    if (e == Edge::mirror) return j < 0 ? -j - 1 : 2 * n - j - 1;
    throw std::logic_error("reference: a read beyond a fixed side");  // never: those cells are not updated
  };
  for (int s = 0; s < steps; ++s) {
    for (int i0 = 0; i0 < init.n[0]; ++i0)
      for (int i1 = 0; i1 < init.n[1]; ++i1)
        for (int i2 = 0; i2 < init.n[2]; ++i2) {
          if (!updated(0, i0) || !updated(1, i1) || !updated(2, i2)) continue;
          auto reader = [&](const Field& f) -> Reader {
            return [&f, &source, i0, i1, i2](int d0, int d1, int d2) {
              return f.at(source(0, i0 + d0), source(1, i1 + d1), source(2, i2 + d2));
            };
          };
          std::vector<Reader> field_readers;
          for (const Field& f : fields) field_readers.push_back(reader(f));
          b.at(i0, i1, i2) = update(reader(a), field_readers);
        }
    std::swap(a, b);
  }
  return a;
}

// ---- Several state fields and time levels --------------------------------
// One cell update of every field given one reader per field and level (field
// 0's levels newest first, then field 1's, ...) and one per read-only field.
using StateUpdate =
    std::function<std::vector<long double>(const std::vector<Reader>& state, const std::vector<Reader>& fields)>;

// T steps; levels[f][l] is field f at level l (0 the newest), returned the same
// way after the steps. A fixed side keeps the newest level's values in each
// new level; reads beyond a periodic or mirror side go through the rule.
inline std::vector<std::vector<Field>> reference_run_state(std::vector<std::vector<Field>> levels,
                                                           const std::vector<Field>& fields, int rank, int radius,
                                                           const StateUpdate& update, int steps, const Edges& edges) {
  const Extents n = levels.at(0).at(0).n;
  auto updated = [&](int axis, int i) {
    if (axis >= rank) return true;
    return !((edges[axis][0] == Edge::fixed && i < radius) || (edges[axis][1] == Edge::fixed && i >= n[axis] - radius));
  };
  auto source = [&](int axis, int j) {
    if (axis >= rank || (j >= 0 && j < n[axis])) return j;
    const Edge e = edges[axis][j < 0 ? 0 : 1];
    if (e == Edge::periodic) return ((j % n[axis]) + n[axis]) % n[axis];
    if (e == Edge::mirror) return j < 0 ? -j - 1 : 2 * n[axis] - j - 1;
    throw std::logic_error("reference: a read beyond a fixed side");
  };
  for (int s = 0; s < steps; ++s) {
    std::vector<Field> next;
    for (const auto& field : levels) next.push_back(field.at(0));
    for (int i0 = 0; i0 < n[0]; ++i0)
      for (int i1 = 0; i1 < n[1]; ++i1)
        for (int i2 = 0; i2 < n[2]; ++i2) {
          if (!updated(0, i0) || !updated(1, i1) || !updated(2, i2)) continue;
          auto reader = [&](const Field& f) -> Reader {
            return [&f, &source, i0, i1, i2](int d0, int d1, int d2) {
              return f.at(source(0, i0 + d0), source(1, i1 + d1), source(2, i2 + d2));
            };
          };
          std::vector<Reader> state_readers, field_readers;
          for (const auto& field : levels)
            for (const Field& level : field) state_readers.push_back(reader(level));
          for (const Field& f : fields) field_readers.push_back(reader(f));
          const std::vector<long double> values = update(state_readers, field_readers);
          for (size_t f = 0; f < next.size(); ++f) next[f].at(i0, i1, i2) = values.at(f);
        }
    for (size_t f = 0; f < levels.size(); ++f) {
      levels[f].insert(levels[f].begin(), next[f]);
      levels[f].pop_back();
    }
  }
  return levels;
}

// max |got - ref| / max |ref|; NaN anywhere (an unwritten cell) gives +inf.
inline double relative_error(const Field& got, const Field& ref) {
  long double worst = 0, scale = 0;
  for (size_t i = 0; i < ref.v.size(); ++i) {
    if (!std::isfinite(static_cast<double>(got.v[i]))) return INFINITY;
    worst = std::max(worst, std::fabs(got.v[i] - ref.v[i]));
    scale = std::max(scale, std::fabs(ref.v[i]));
  }
  return static_cast<double>(worst / scale);
}

}  // namespace ebisu_test

#endif
