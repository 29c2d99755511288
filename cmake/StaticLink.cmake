# A small report is mostly the process's start. Before main(), the dynamic loader mapped 12
# shared libraries and bound their symbols, 4,000 of the 4,922 bindings for libstdc++ and
# protobuf. Linked with the archives of its C++ libraries (Boost.Program_options,
# protobuf-lite) and the C++ runtime inside, pmclog-report --version went from 3.0 to 2.0 ms
# and a 20,000-sample folded report from 18.6 to 16.8 ms (41 and 31 interleaved runs; linking
# the C libraries in as well gained about half a millisecond more).
#
# The C libraries (elfutils, zlib, zstd, xz, bzip2) stay shared: cheap to load, and a Debian
# package must not embed them (lintian: embedded-library), so that their security updates
# reach the tool. Only for executables that load no C++ shared library of their own (fmt and
# simdjson come without archives): two C++ runtimes in one process would not share their type
# information. Not under the sanitizers, whose runtime replaces the C++ allocation functions.
option(PMCLOG_STATIC_RUNTIME
  "Link pmclog-report with the archives of its C++ libraries and the C++ runtime inside" ON)

set(PMCLOG_STATIC_NAMES boost_program_options protobuf-lite)

# Sets `result` to whether `target` is linked so.
function(pmclog_link_statically target result)
  if(NOT PMCLOG_STATIC_RUNTIME OR PMCLOG_SANITIZE OR PMCLOG_FUZZ
     OR NOT CMAKE_GENERATOR MATCHES "Make|Ninja")
    set(${result} FALSE PARENT_SCOPE)
    return()
  endif()
  foreach(name IN LISTS PMCLOG_STATIC_NAMES)
    find_library(PMCLOG_ARCHIVE_${name} NAMES lib${name}.a)
    if(NOT PMCLOG_ARCHIVE_${name})
      message(STATUS "No archive of ${name}: ${target} links its shared libraries")
      set(${result} FALSE PARENT_SCOPE)
      return()
    endif()
  endforeach()
  list(JOIN PMCLOG_STATIC_NAMES "," names)
  set_property(TARGET ${target} PROPERTY RULE_LAUNCH_LINK
    "${CMAKE_COMMAND} -DNAMES=${names} -P ${PROJECT_SOURCE_DIR}/cmake/static_link.cmake --")
  set(${result} TRUE PARENT_SCOPE)
endfunction()
