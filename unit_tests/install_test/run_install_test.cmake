# Installs the already-built EbisuKokkos into a fresh prefix, then configures,
# builds and runs the consumer project against that install. Kokkos is not
# passed in: EbisuKokkosConfig.cmake must find it by itself.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
macro(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test step failed (${rc}): ${ARGN}")
  endif()
endmacro()
run(${CMAKE_COMMAND} --install ${EBISU_BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${EBISU_SOURCE_DIR}/unit_tests/install_test -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
