// Wording a line that simdjson's DOM parser refused: where (the column within the line) and
// why. Internal to libpmclog (json_parse.cpp); the error path only.
#pragma once

#include <string_view>

#include <simdjson.h>

#include "pmclog/error.h"

namespace pmclog::json_detail {

Error locate_json_error(simdjson::error_code dom_error, const simdjson::padded_string_view& text);

}  // namespace pmclog::json_detail
