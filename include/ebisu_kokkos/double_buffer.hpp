#ifndef EBISU_KOKKOS_DOUBLE_BUFFER_HPP
#define EBISU_KOKKOS_DOUBLE_BUFFER_HPP

// A pair of same-shaped Views with a selector saying which one holds the
// current field: the "swap the two buffers" idiom of a hand-written time loop
// as a value. parallel_stencil on a DoubleBuffer leaves the result in
// current() by flipping the selector instead of copying it back, so a run
// whose launch count is odd costs no extra pass over device memory.

#include <ebisu_kokkos/impl/compat.hpp>

namespace EbisuKokkos {

template <class ViewType>
class DoubleBuffer {
 public:
  using view_type = ViewType;

  DoubleBuffer() : m_views{Impl::unallocated_view<ViewType>(), Impl::unallocated_view<ViewType>()} {}
  /// `current` holds the field; `alternate` is the second buffer (its contents do not matter).
  DoubleBuffer(const ViewType& current, const ViewType& alternate) : m_views{current, alternate} {}

  const ViewType& current() const { return m_views[m_selector]; }
  const ViewType& alternate() const { return m_views[1 - m_selector]; }
  /// What a hand-written loop does after each step.
  void swap() { m_selector ^= 1; }

 private:
  ViewType m_views[2];
  int m_selector = 0;
};

}  // namespace EbisuKokkos

#endif
