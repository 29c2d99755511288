# ctest helper: fails when the test binary holds a suite that CMakeLists.txt does not run.
# Usage: cmake -DBIN=<test binary> "-DSUITES=<a;b;c>" -P check_suites.cmake
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST) in script mode
execute_process(COMMAND ${BIN} --gtest_list_tests OUTPUT_VARIABLE _out RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${BIN} --gtest_list_tests failed")
endif()
string(REPLACE "\n" ";" _lines "${_out}")
foreach(_l IN LISTS _lines)
  if(_l MATCHES "^([A-Za-z0-9_]+/)?([A-Za-z0-9_]+)\\.$")
    if(NOT CMAKE_MATCH_2 IN_LIST SUITES)
      message(FATAL_ERROR "suite ${CMAKE_MATCH_2} is not in _codec_suites of tests/codec/CMakeLists.txt")
    endif()
  endif()
endforeach()
