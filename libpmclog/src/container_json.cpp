// The PMCL container's JSON Lines (docs/jsonl.md "PMCL container lines"): one line for the
// file header and one per info, lossless. Typed members show what the payload holds; where a
// re-encoding of them would not give the exact bytes (stale bytes after a string's NUL, odd
// lengths, unknown types), the exact bytes are carried as hex and win when read back.
#include <simdjson.h>

#include <cstdio>
#include <cstring>

#include "json_syntax.h"
#include "pmclog/container.h"
#include "pmclog/endian_io.h"
#include "pmclog/text.h"

namespace pmclog {

namespace {

std::string_view as_chars(std::span<const uint8_t> b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

void member(std::string& out, std::string_view name) {
  out += ",\"";
  out += name;
  out += "\":";
}

void num_member(std::string& out, std::string_view name, uint64_t v) {
  member(out, name);
  out += std::to_string(v);
  if (v > (uint64_t{1} << 53)) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "\"0x%llx\"", static_cast<unsigned long long>(v));
    member(out, std::string(name) + "_hex");
    out += buf;
  }
}

void str_member(std::string& out, std::string_view name, std::string_view s) {
  member(out, name);
  append_json_string(out, s);
}

void hex_member(std::string& out, std::string_view name, std::span<const uint8_t> b) {
  member(out, name);
  out += '"';
  out += hex_bytes(as_chars(b));
  out += '"';
}

}  // namespace

bool is_container_json_type(std::string_view type) {
  return type == "pmcl-header" || type == "pmcl-info";
}

void append_container_header_json(const Container& c, std::string& out) {
  out += "{\"offset\":0,\"type\":\"pmcl-header\"";
  str_member(out, "byte_order", byte_order_name(c.byte_order));
  num_member(out, "version", c.version);
  str_member(out, "arch", container_arch_name(c.arch).value_or("unknown"));
  num_member(out, "arch_code", c.arch);
  out += '}';
}

void append_container_info_json(const ContainerInfo& info, ByteOrder o, std::string& out) {
  out += "{\"offset\":" + std::to_string(info.offset) + ",\"type\":\"pmcl-info\"";
  str_member(out, "info_type", info_type_name(info.type).value_or("unknown"));
  num_member(out, "info_type_code", info.type);
  num_member(out, "length", info.payload.size());
  num_member(out, "reserved8", info.reserved8);
  num_member(out, "reserved32", info.reserved32);
  bool exact = false;  // the typed members give back the payload
  switch (static_cast<InfoType>(info.type)) {
    case InfoType::done: exact = info.payload.empty(); break;
    case InfoType::sysinfo:
      if (auto s = sysinfo_of(info)) {
        const std::string* f[3] = {&s->cpu_model, &s->os_release, &s->kernel_build_id};
        const ContainerInfo again = make_sysinfo(*s);
        for (int i = 0; i < 3; ++i) {
          str_member(out, kSysinfoNames[i], *f[i]);
          const auto bytes = sysinfo_field(info, i);
          if (!is_valid_utf8(*f[i]) ||
              std::memcmp(bytes.data(), sysinfo_field(again, i).data(), bytes.size()) != 0)
            hex_member(out, std::string(kSysinfoNames[i]) + "_hex", bytes);
        }
        exact = true;
      }
      break;
    case InfoType::pmcinfo:
      if (auto p = pmcinfo_of(info, o)) {
        num_member(out, "rate", p->rate);
        str_member(out, "event", p->event);
        exact = is_valid_utf8(p->event) && make_pmcinfo(*p, o).payload == info.payload;
      }
      break;
    case InfoType::cpuid:
      if (info.payload.size() % kCpuidLeafSize == 0) {
        member(out, "leaves");
        out += '[';
        bool first = true;
        for (const CpuidLeaf& l : cpuid_leaves_of(info, o)) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%s[\"0x%08x\",\"0x%08x\",\"0x%08x\",\"0x%08x\"]",
                        first ? "" : ",", l.eax, l.ebx, l.ecx, l.edx);
          out += buf;
          first = false;
        }
        out += ']';
        exact = true;
      }
      break;
  }
  if (!exact) hex_member(out, "payload_hex", info.payload);
  out += '}';
}

namespace {

namespace dom = simdjson::dom;

Error bad(std::string msg) {
  Error e;
  e.code = Errc::value_out_of_range;
  e.message = std::move(msg);
  return e;
}

std::string label(std::string_view k) { return "field '" + std::string(k) + "'"; }

std::optional<Error> get_u64(dom::element v, std::string_view key, uint64_t max, uint64_t& out) {
  if (v.type() == dom::element_type::UINT64 || v.type() == dom::element_type::INT64) {
    int64_t i = 0;
    if (v.type() == dom::element_type::INT64 && (i = v.get_int64().value_unsafe()) < 0)
      return bad(label(key) + ": " + std::to_string(i) + " is negative");
    out = v.get_uint64().value_unsafe();
  } else if (v.type() == dom::element_type::STRING) {
    const std::string_view s = v.get_string().value_unsafe();
    char* end = nullptr;
    const std::string t(s);
    errno = 0;
    const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    out = std::strtoull(t.c_str(), &end, hex ? 16 : 10);
    if (t.empty() || t[0] == '-' || errno != 0 || end != t.c_str() + t.size())
      return bad(label(key) + ": \"" + t + "\" is not a number");
  } else {
    return bad(label(key) + ": a number is expected");
  }
  if (out > max) return bad(label(key) + ": " + std::to_string(out) + " does not fit (at most " +
                            std::to_string(max) + ")");
  return std::nullopt;
}

std::optional<Error> get_str(dom::element v, std::string_view key, std::string_view& out) {
  if (v.type() != dom::element_type::STRING) return bad(label(key) + ": a string is expected");
  out = v.get_string().value_unsafe();
  return std::nullopt;
}

std::optional<Error> get_hex(dom::element v, std::string_view key, std::vector<uint8_t>& out) {
  std::string_view s;
  if (auto e = get_str(v, key, s)) return e;
  if (s.size() % 2) return bad(label(key) + ": an odd number of hex digits");
  out.clear();
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = digit(s[i]), lo = digit(s[i + 1]);
    if (hi < 0 || lo < 0) return bad(label(key) + ": not hex digits");
    out.push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return std::nullopt;
}

}  // namespace

bool is_container_json_line(std::string_view line) {
  if (line.find("\"pmcl-") == std::string_view::npos) return false;
  thread_local dom::parser parser;
  std::string copy(line);
  copy.append(simdjson::SIMDJSON_PADDING, ' ');
  dom::element doc;
  if (parser.parse(copy.data(), line.size(), false).get(doc)) return false;
  dom::object obj;
  if (doc.get_object().get(obj)) return false;
  std::string_view type;
  if (obj["type"].get_string().get(type)) return false;
  return is_container_json_type(type);
}

Result<JsonContainerLine> parse_container_json(std::string_view line, ByteOrder o) {
  thread_local dom::parser parser;
  std::string copy(line);
  copy.append(simdjson::SIMDJSON_PADDING, ' ');
  const simdjson::padded_string_view text(copy.data(), line.size(), copy.size());
  dom::element doc;
  if (auto err = parser.parse(text.data(), text.length(), false).get(doc))
    return json_detail::locate_json_error(err, text);
  if (doc.type() != dom::element_type::OBJECT) return bad("the line is not a JSON object");
  const dom::object obj = doc.get_object().value_unsafe();
  JsonContainerLine res;
  std::string_view type;
  if (auto t = obj["type"]; t.error() || t.value_unsafe().type() != dom::element_type::STRING)
    return bad("field 'type': missing or not a string");
  else
    type = t.value_unsafe().get_string().value_unsafe();
  if (!is_container_json_type(type)) return bad("field 'type': not a PMCL container line");
  res.header = type == "pmcl-header";
  res.head.byte_order = o;

  // Members as read; typed payload members are combined after the loop.
  std::optional<uint64_t> length, arch_code, type_code;
  std::string_view arch_name, info_name;
  bool have_hex = false;
  std::vector<uint8_t> payload_hex, str_hex[3];
  bool have_str[3] = {}, have_str_hex[3] = {};
  std::string_view strs[3];
  std::optional<uint64_t> rate;
  std::optional<std::string_view> event;
  std::optional<std::vector<CpuidLeaf>> leaves;
  std::vector<std::string> seen;
  for (const dom::key_value_pair kv : obj) {
    const std::string_view k = kv.key;
    for (const auto& s : seen)
      if (s == k) return bad(label(k) + ": given twice");
    seen.emplace_back(k);
    const dom::element v = kv.value;
    uint64_t n = 0;
    std::optional<Error> e;
    if (k == "type") continue;
    if (k == "file") {  // several files in one dump: the writer selects by it
      std::string_view f;
      if (auto err = get_str(v, k, f)) return *err;
      res.has_file = true;
      res.file = std::string(f);
      continue;
    }
    if (k == "offset") {
      e = get_u64(v, k, UINT64_MAX, res.offset);
      res.has_offset = true;
    } else if (res.header) {
      if (k == "byte_order") {
        std::string_view s;
        e = get_str(v, k, s);
        if (!e) {
          auto bo = parse_byte_order(s);
          if (!bo) return bad(label(k) + ": \"" + std::string(s) + "\" is not little or big");
          res.head.byte_order = *bo;
          res.has_byte_order = true;
        }
      } else if (k == "version") {
        e = get_u64(v, k, 0xFFFF, n);
        // A version no reader here knows would give a log that pmclog's own tools refuse.
        if (!e && n > kContainerVersionMax)
          return bad(label(k) + ": " + std::to_string(n) + " is above " +
                     std::to_string(kContainerVersionMax) +
                     ", the only container version this toolkit reads (format.md §18)");
        res.head.version = static_cast<uint16_t>(n);
      } else if (k == "arch") {
        e = get_str(v, k, arch_name);
      } else if (k == "arch_code") {
        e = get_u64(v, k, 0xFFFF, n);
        arch_code = n;
      } else {
        return bad("unknown member '" + std::string(k) + "' in a pmcl-header line; docs/jsonl.md lists the members");
      }
    } else if (k == "info_type") {
      e = get_str(v, k, info_name);
    } else if (k == "info_type_code") {
      e = get_u64(v, k, 0xFF, n);
      type_code = n;
    } else if (k == "length") {
      e = get_u64(v, k, 0xFFFF, n);
      length = n;
    } else if (k == "reserved8") {
      e = get_u64(v, k, 0xFF, n);
      res.info.reserved8 = static_cast<uint8_t>(n);
    } else if (k == "reserved32") {
      e = get_u64(v, k, 0xFFFFFFFF, n);
      res.info.reserved32 = static_cast<uint32_t>(n);
    } else if (k == "payload_hex") {
      e = get_hex(v, k, payload_hex);
      have_hex = true;
    } else if (k == "rate" || k == "rate_hex") {
      e = get_u64(v, k, UINT64_MAX, n);
      if (!rate || k == "rate_hex") rate = n;  // the hex form is exact
    } else if (k == "event") {
      std::string_view s;
      e = get_str(v, k, s);
      event = s;
    } else if (k == "leaves") {
      if (v.type() != dom::element_type::ARRAY) return bad(label(k) + ": an array is expected");
      leaves.emplace();
      dom::array all;
      if (v.get_array().get(all)) return bad(label(k) + ": an array is expected");
      for (dom::element leaf : all) {
        dom::array words;
        if (leaf.get_array().get(words) || words.size() != 4)
          return bad(label(k) + ": each leaf is an array of 4 numbers (eax, ebx, ecx, edx)");
        uint32_t w[4];
        int i = 0;
        for (dom::element x : words) {
          if (auto err = get_u64(x, k, 0xFFFFFFFF, n)) return *err;
          w[i++] = static_cast<uint32_t>(n);
        }
        leaves->push_back({w[0], w[1], w[2], w[3]});
      }
    } else {
      bool known = false;
      for (int i = 0; i < 3; ++i) {
        if (k == kSysinfoNames[i]) {
          e = get_str(v, k, strs[i]);
          have_str[i] = known = true;
        } else if (k == std::string(kSysinfoNames[i]) + "_hex") {
          e = get_hex(v, k, str_hex[i]);
          if (!e && str_hex[i].size() != kSysinfoStringSize)
            return bad(label(k) + ": " + std::to_string(str_hex[i].size()) +
                       " bytes, a SYSINFO string is 64");
          have_str_hex[i] = known = true;
        }
      }
      if (!known)
        return bad("unknown member '" + std::string(k) + "' in a pmcl-info line; docs/jsonl.md lists the members");
    }
    if (e) return *e;
  }

  if (res.header) {
    if (arch_code) {
      res.head.arch = static_cast<uint16_t>(*arch_code);
    } else if (!arch_name.empty()) {
      auto a = parse_container_arch(arch_name);
      if (!a) return bad("field 'arch': \"" + std::string(arch_name) + "\" is not other, amd64, arm64, ppc64, riscv64 or arm");
      res.head.arch = *a;
    }
    return res;
  }
  if (type_code) {
    res.info.type = static_cast<uint8_t>(*type_code);
  } else if (auto t = parse_info_type(info_name)) {
    res.info.type = *t;
  } else {
    return bad("field 'info_type': missing or unknown (done, sysinfo, pmcinfo, cpuid; "
               "other types need info_type_code)");
  }
  ContainerInfo& info = res.info;
  if (have_hex) {
    info.payload = std::move(payload_hex);
  } else {
    switch (static_cast<InfoType>(info.type)) {
      case InfoType::done: break;
      case InfoType::sysinfo: {
        Sysinfo s{std::string(strs[0]), std::string(strs[1]), std::string(strs[2])};
        info.payload = make_sysinfo(s).payload;
        for (int i = 0; i < 3; ++i) {
          if (!have_str[i] && !have_str_hex[i])
            return bad(label(kSysinfoNames[i]) + ": missing (SYSINFO has three strings)");
          if (have_str_hex[i])
            std::memcpy(info.payload.data() + static_cast<size_t>(i) * kSysinfoStringSize,
                        str_hex[i].data(), kSysinfoStringSize);
          else if (strs[i].size() >= kSysinfoStringSize)
            return bad(label(kSysinfoNames[i]) + ": " + std::to_string(strs[i].size()) +
                       " bytes do not fit in 64 with the NUL");
        }
        break;
      }
      case InfoType::pmcinfo:
        info.payload = make_pmcinfo({rate.value_or(0), std::string(event.value_or(""))}, o).payload;
        break;
      case InfoType::cpuid:
        if (leaves) info.payload = make_cpuid(*leaves, o).payload;
        break;
      default: break;
    }
  }
  if (length && *length != info.payload.size())
    return bad("field 'length': " + std::to_string(*length) + " does not match the payload's " +
               std::to_string(info.payload.size()) + " bytes");
  return res;
}

}  // namespace pmclog
