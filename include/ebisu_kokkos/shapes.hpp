#ifndef EBISU_KOKKOS_SHAPES_HPP
#define EBISU_KOKKOS_SHAPES_HPP

// Stencil shapes: which offsets inside the (2r+1)^rank box a stencil reads.
//
// A shape is any type with
//   static constexpr bool contains(int d0, int d1, int d2);
// where d0, d1, d2 are offsets along View index 0, 1 and 2 (unused trailing
// offsets are 0). Shapes are compile-time so that every backend can unroll the
// stencil completely and keep neighbours in registers; coefficients stay
// run-time values.

namespace EbisuKokkos {

namespace Impl {
constexpr int abs_value(int v) { return v < 0 ? -v : v; }
}  // namespace Impl

/// Centre plus the axis-aligned neighbours up to the radius (5-point, 9-point, 7-point, ...).
struct StarShape {
  static constexpr bool contains(int d0, int d1, int d2) {
    return (d0 == 0 ? 1 : 0) + (d1 == 0 ? 1 : 0) + (d2 == 0 ? 1 : 0) >= 2;
  }
};

/// Every offset of the (2r+1)^rank box (9-point, 25-point, 27-point, ...).
struct BoxShape {
  static constexpr bool contains(int, int, int) { return true; }
};

/// 3-D 17-point (EBISU suite j3d17pt): the full 3x3 plane orthogonal to index
/// 0 plus the four diagonal corners of the planes above and below.
struct Corner17Shape {
  static constexpr bool contains(int d0, int d1, int d2) {
    return d0 == 0 || (Impl::abs_value(d1) == 1 && Impl::abs_value(d2) == 1);
  }
};

/// 3-D 19-point (EBISU suite "poisson"): centre, 6 faces and 12 edges of the
/// 3x3x3 box, i.e. every offset except the 8 corners.
struct NoCornerShape {
  static constexpr bool contains(int d0, int d1, int d2) {
    return Impl::abs_value(d0) + Impl::abs_value(d1) + Impl::abs_value(d2) <= 2;
  }
};

}  // namespace EbisuKokkos

#endif
