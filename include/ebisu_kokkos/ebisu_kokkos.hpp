#ifndef EBISU_KOKKOS_HPP
#define EBISU_KOKKOS_HPP

// EbisuKokkos: deep temporal blocking for iterative stencils on Kokkos Views.
// The one header users include.

#include <ebisu_kokkos/config.hpp>
#include <ebisu_kokkos/double_buffer.hpp>
#include <ebisu_kokkos/fields.hpp>
#include <ebisu_kokkos/parallel_stencil.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/presets.hpp>
#include <ebisu_kokkos/shapes.hpp>
#include <ebisu_kokkos/state.hpp>
#include <ebisu_kokkos/stencil.hpp>
#include <ebisu_kokkos/version.hpp>

#endif
