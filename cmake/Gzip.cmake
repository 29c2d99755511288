# cmake -DGZIP=gzip -DIN=FILE -DOUT=FILE.gz -P Gzip.cmake: compresses as Debian wants its
# man pages and changelogs, with -9 and -n (no name or time in the header, so that the same
# file always gives the same bytes).
get_filename_component(_dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${_dir})
execute_process(COMMAND ${GZIP} -9n -c ${IN} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "gzip -9n ${IN}: ${_rc}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
