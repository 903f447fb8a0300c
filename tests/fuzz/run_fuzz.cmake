# ctest driver of fuzz_hdf5: fresh scratch corpus, bounded time, fails on any finding.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK} ${FAILURES})
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=20 -rss_limit_mb=2048
          -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix=${FAILURES}
          ${WORK} ${CORPUS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz_hdf5 found a failing input (exit ${rc}); it is in ${FAILURES}")
endif()
