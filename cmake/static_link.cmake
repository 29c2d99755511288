# A link launcher (RULE_LAUNCH_LINK): runs the link command given after "--" with each shared
# library named in NAMES (a comma list, such as "z,dw") replaced by the archive beside it
# (an error when there is none), and with the C++ runtime linked in. The archives are named
# once more at the end, so that one needing another named before it still finds it.
#
#   cmake -DNAMES=z,dw -P static_link.cmake -- g++ ... -o out ... /usr/lib/libz.so ...
#
# Why: see pmclog_link_statically in StaticLink.cmake.
string(REPLACE "," ";" NAMES "${NAMES}")
set(command)
set(archives)
set(seen_dashes FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  set(arg "${CMAKE_ARGV${i}}")
  if(NOT seen_dashes)
    if(arg STREQUAL "--")
      set(seen_dashes TRUE)
    endif()
    continue()
  endif()
  foreach(name IN LISTS NAMES)
    if(arg MATCHES "^(.*/)?lib${name}\\.so(\\.[0-9.]+)?$")
      set(archive "${CMAKE_MATCH_1}lib${name}.a")
      if(NOT EXISTS "${archive}")  # the shared one would bring a second C++ runtime
        message(FATAL_ERROR "static_link.cmake: no ${archive} beside ${arg}; configure "
                            "with -DPMCLOG_STATIC_RUNTIME=OFF")
      endif()
      set(arg "${archive}")
      list(APPEND archives "${archive}")
      break()
    endif()
  endforeach()
  list(APPEND command "${arg}")
endforeach()
if(NOT command)
  message(FATAL_ERROR "static_link.cmake: no link command after --")
endif()
list(APPEND command -static-libstdc++ -static-libgcc ${archives})
execute_process(COMMAND ${command} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "link failed (${status})")
endif()
