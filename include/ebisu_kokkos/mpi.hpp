#ifndef EBISU_KOKKOS_MPI_HPP
#define EBISU_KOKKOS_MPI_HPP

// EbisuKokkos over MPI: a Cartesian domain decomposition with deep ghost zones
// and parallel_stencil across ranks. The one header distributed codes include
// (beside or instead of ebisu_kokkos.hpp); link EbisuKokkos::ebisu_kokkos_mpi,
// built when EbisuKokkos_ENABLE_MPI is on.

#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <ebisu_kokkos/mpi/cartesian_domain.hpp>
#include <ebisu_kokkos/mpi/parallel_stencil.hpp>
#include <ebisu_kokkos/mpi/transfer.hpp>

#endif
