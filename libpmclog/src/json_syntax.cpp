// The column and reason of a JSON syntax error (json_syntax.h).
#include "json_syntax.h"

#include <string>

namespace pmclog::json_detail {

namespace {

namespace od = simdjson::ondemand;

Error bad(std::string msg) { return Error{Errc::value_out_of_range, 0, 0, std::move(msg)}; }
std::string label(std::string_view name) { return "field '" + std::string(name) + "'"; }

// The parser's message for a syntax error at `at` (off the end of the line when outside it).
std::string syntax_error_at(simdjson::error_code e, const char* at, std::string_view line) {
  const size_t column = at != nullptr && at >= line.data() && at <= line.data() + line.size()
                            ? static_cast<size_t>(at - line.data()) + 1
                            : line.size() + 1;
  return "invalid JSON at column " + std::to_string(column) + ": " + simdjson::error_message(e);
}

// The same at the column where the parser stood.
std::string syntax_error(simdjson::error_code e, od::document& doc, std::string_view line) {
  const char* at = nullptr;
  if (doc.current_location().get(at)) at = nullptr;
  return syntax_error_at(e, at, line);
}

// The raw text of a number token, for messages.
std::string_view token_of(od::value& v) {
  std::string_view t = v.raw_json_token();
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r' || t.back() == '\n'))
    t.remove_suffix(1);
  return t;
}

// The DOM parser's nesting limit (simdjson's default): a line nested deeper is refused, and
// the walk below stops there rather than recursing once per '[' of a hostile line.
constexpr size_t kMaxDepth = simdjson::DEFAULT_MAX_DEPTH;

// Where a line that the DOM parser refused goes wrong. On-Demand walks it value by value and
// stops at the error, which gives a column; a number too wide for 64 bits (which the DOM
// reports only as a bad number) is named with its member instead.
std::optional<Error> walk(od::value v, std::string_view key, od::document& doc,
                          std::string_view line, size_t depth) {
  od::json_type t{};
  if (auto e = v.type().get(t)) return bad(syntax_error(e, doc, line));
  if ((t == od::json_type::object || t == od::json_type::array) && depth >= kMaxDepth)
    return bad(syntax_error_at(simdjson::DEPTH_ERROR, v.raw_json_token().data(), line));
  switch (t) {
    case od::json_type::object: {
      od::object obj;
      if (auto e = v.get_object().get(obj)) return bad(syntax_error(e, doc, line));
      for (auto member : obj) {
        od::field f;
        std::string_view k;
        if (auto e = std::move(member).get(f)) return bad(syntax_error(e, doc, line));
        if (auto e = f.unescaped_key().get(k)) return bad(syntax_error(e, doc, line));
        if (auto err = walk(f.value(), k, doc, line, depth + 1)) return err;
      }
      return std::nullopt;
    }
    case od::json_type::array: {
      od::array arr;
      if (auto e = v.get_array().get(arr)) return bad(syntax_error(e, doc, line));
      for (auto item : arr) {
        od::value iv;
        if (auto e = std::move(item).get(iv)) return bad(syntax_error(e, doc, line));
        if (auto err = walk(iv, key, doc, line, depth + 1)) return err;
      }
      return std::nullopt;
    }
    case od::json_type::number: {
      const std::string_view tok = token_of(v);
      if (!tok.empty() && tok.find_first_not_of("-0123456789") == std::string_view::npos) {
        uint64_t u = 0;
        int64_t i = 0;
        const bool fits = tok[0] == '-' ? v.get_int64().get(i) == simdjson::SUCCESS
                                        : v.get_uint64().get(u) == simdjson::SUCCESS;
        if (!fits) return bad(label(key) + ": " + std::string(tok) + " exceeds 64 bits");
        return std::nullopt;
      }
      double d = 0;
      if (v.get_double().get(d) == simdjson::SUCCESS) return std::nullopt;
      return bad(label(key) + ": " + std::string(tok) + " is not a number");
    }
    case od::json_type::string: {
      std::string_view str;
      if (auto e = v.get_string().get(str)) return bad(syntax_error(e, doc, line));
      return std::nullopt;
    }
    case od::json_type::boolean: {
      bool b = false;
      if (auto e = v.get_bool().get(b)) return bad(syntax_error(e, doc, line));
      return std::nullopt;
    }
    case od::json_type::null: {
      bool n = false;
      if (auto e = v.is_null().get(n)) return bad(syntax_error(e, doc, line));
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

Error locate_json_error(simdjson::error_code dom_error, const simdjson::padded_string_view& text) {
  // Columns count in the parsed text (the line, or a padded copy of it): the parser's
  // positions point into it.
  const std::string_view line(text.data(), text.length());
  od::parser parser;  // the error path only: a fresh one is cheap enough
  od::document doc;
  // A refused iterate() leaves no document to ask for a location (simdjson 3.0 crashes in
  // current_location() then): an unclosed string, for one.
  if (auto e = parser.iterate(text).get(doc))
    return bad(std::string("invalid JSON: ") + simdjson::error_message(e));
  od::json_type t{};
  if (auto e = doc.type().get(t)) return bad(syntax_error(e, doc, line));
  if (t == od::json_type::object || t == od::json_type::array) {
    od::value root;
    if (auto e = doc.get_value().get(root)) return bad(syntax_error(e, doc, line));
    if (auto err = walk(root, "", doc, line, 0)) return *err;
    // simdjson 3.0 has no document::at_end(): a location after the value is trailing text.
    const char* rest = nullptr;
    if (doc.current_location().get(rest) == simdjson::SUCCESS)
      return bad("invalid JSON at column " + std::to_string(rest - line.data() + 1) +
                 ": text after the object");
  }
  return bad(std::string("invalid JSON: ") + simdjson::error_message(dom_error));
}

}  // namespace pmclog::json_detail
