# Writes OUTPUT, a C++ header in which NAMESPACE::NAME is a std::string_view of INPUT's exact
# bytes, so that a file kept readable as itself (flamegraph.js) is built into the program.
# Usage: cmake -DINPUT=FILE -DOUTPUT=HEADER -DNAME=IDENTIFIER -DNAMESPACE=NS -P embed_text.cmake
foreach(v INPUT OUTPUT NAME NAMESPACE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "embed_text.cmake: ${v} is not set")
  endif()
endforeach()

file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
get_filename_component(in_name "${INPUT}" NAME)

# A "\xNN" escape per byte: each is followed by another escape or by the closing quote, so
# no escape runs into the next byte. 32 bytes to a line; the literals join into one.
set(body "")
set(at 0)
while(at LESS hex_len)
  string(SUBSTRING "${hex}" ${at} 64 chunk)
  string(REGEX REPLACE "(..)" "\\\\x\\1" chunk "${chunk}")
  string(APPEND body "    \"${chunk}\"\n")
  math(EXPR at "${at} + 64")
endwhile()
if(body STREQUAL "")
  set(body "    \"\"\n")
endif()

file(WRITE "${OUTPUT}" "// Generated from ${in_name} by embed_text.cmake: edit ${in_name}, not this file.
#pragma once

#include <string_view>

namespace ${NAMESPACE} {

inline constexpr char ${NAME}Bytes[] =
${body};
// The bytes without the literal's closing NUL (the file may hold NULs of its own).
inline constexpr std::string_view ${NAME}{${NAME}Bytes, sizeof ${NAME}Bytes - 1};

}  // namespace ${NAMESPACE}
")
