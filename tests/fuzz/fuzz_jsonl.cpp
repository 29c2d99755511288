// Fuzz target: pmclog-write's JSON Lines reader (tools/pmclog-write json_input, linked as the
// tool's library), with a dictionary of member names (dict/jsonl.dict). Property: for every
// input the writer accepts, jsonl -> write -> dump -> jsonl is a fixed point: writing the
// dump of the written log, with the same ABI, gives the same dump again; and when the written
// log decodes without an error, writing its dump gives back exactly its bytes. A written log
// with damage (stale bytes laid over a header) dumps without its damaged records, so the
// rewrite is the salvaged log: the same lines at other offsets, and from there a fixed point.
#include <fstream>
#include <iterator>

#include "fuzz_support.h"
#include "json_input.h"
#include "output_file.h"
#include "pmclog/container.h"
#include "pmclog/json.h"
#include "record_stream.h"
#include "tool_error.h"

using namespace pmclog;
using fuzz::check;

namespace {

fuzz::ScratchCleanup cleanup;

struct Written {
  Abi abi;
  std::vector<uint8_t> bytes;
};

// What pmclog-write does with the lines; nullopt when it refuses them.
std::optional<Written> write_jsonl(std::span<const uint8_t> in, const write::JsonOptions& opt) {
  const std::string path = (fuzz::scratch_dir() / "out.pmclog").string();
  tools::OutputFile out;
  check(!out.open(path), "cannot open the output");
  std::unique_ptr<write::RecordStream> stream;
  Written w;
  try {
    auto src = span_source(in, 1 + in.size() % 4093);
    write::convert_jsonl(*src, "fuzz", opt, [&](const Abi& abi) -> write::RecordStream& {
      w.abi = abi;
      stream = std::make_unique<write::RecordStream>(out, nullptr);
      return *stream;
    });
    if (!stream) {
      out.abort();
      return std::nullopt;
    }
    stream->finish();
  } catch (const tools::Failure& e) {
    check(e.status == tools::Exit::bad_data, "an input error that is not exit 1");
    check(std::string_view(e.what()).rfind("fuzz:", 0) == 0, "a message without the input's name");
    out.abort();
    return std::nullopt;
  }
  check(!out.commit(), "cannot write the output");
  std::ifstream f(path, std::ios::binary);
  w.bytes.assign(std::istreambuf_iterator<char>(f), {});
  return w;
}

// pmclog-dump --format=jsonl of the log, with its ABI given: the container's lines, then a
// line per record; damaged records are left out, as the dump reports them on stderr.
std::string dump_jsonl(const Written& w, bool& clean) {
  AbiHint hint;
  hint.generation = w.abi.generation;
  hint.address_width = w.abi.address_width;
  hint.byte_order = w.abi.byte_order;
  hint.time_width = w.abi.time_width;
  std::string out;
  clean = true;
  auto det = detect_abi(w.bytes, hint);
  check(det.ok(), "the written log is not detected with its own ABI");
  if (det->container) {
    append_container_header_json(*det->container, out);
    out += '\n';
    for (const auto& i : det->container->infos) {
      append_container_info_json(i, det->container->byte_order, out);
      out += '\n';
    }
  }
  LogReader rd = LogReader::over(w.bytes, w.abi);
  rd.discard(det->stream_offset);
  fuzz::walk(rd, w.bytes.size(), [&](const Record& r) {
    append_json(r, w.abi, out);
    out += '\n';
  });
  LogReader again = LogReader::over(w.bytes, w.abi);
  again.discard(det->stream_offset);
  for (const fuzz::Event& e : fuzz::walk(again, w.bytes.size()))
    if (e.error) clean = false;
  return out;
}

// The lines without their leading "offset" member, which every dump line has.
std::string without_offsets(const std::string& jsonl) {
  std::string out;
  size_t at = 0;
  while (at < jsonl.size()) {
    size_t end = jsonl.find('\n', at);
    end = end == std::string::npos ? jsonl.size() : end + 1;
    const std::string_view line(jsonl.data() + at, end - at);
    const std::string_view key = "{\"offset\":";
    check(line.substr(0, key.size()) == key, "a dump line that does not begin with its offset");
    const size_t comma = line.find(',');
    check(comma != std::string_view::npos, "a dump line with nothing after its offset");
    out += '{';
    out += line.substr(comma + 1);
    at = end;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  write::JsonOptions opt;
  opt.quiet = true;
  const auto first = write_jsonl({data, size}, opt);
  if (!first) return 0;
  bool clean1 = false, clean2 = false;
  const std::string jsonl1 = dump_jsonl(*first, clean1);
  write::JsonOptions same = opt;
  same.generation = first->abi.generation;
  same.address_width = first->abi.address_width;
  same.byte_order = first->abi.byte_order;
  const auto second = write_jsonl(
      {reinterpret_cast<const uint8_t*>(jsonl1.data()), jsonl1.size()}, same);
  check(second.has_value(), "the writer refuses the dump of its own output");
  check(second->abi == first->abi, "the dump is written with another ABI");
  const std::string jsonl2 = dump_jsonl(*second, clean2);
  if (clean1) {
    check(jsonl2 == jsonl1, "jsonl -> write -> dump -> jsonl is not a fixed point");
    check(second->bytes == first->bytes, "writing the dump of a clean log changes it");
    return 0;
  }
  check(clean2, "the salvaged log has damage");
  check(without_offsets(jsonl2) == without_offsets(jsonl1),
        "the salvaged log's records are not those of the damaged log's dump");
  const auto third = write_jsonl(
      {reinterpret_cast<const uint8_t*>(jsonl2.data()), jsonl2.size()}, same);
  check(third.has_value(), "the writer refuses the dump of the salvaged log");
  bool clean3 = false;
  check(dump_jsonl(*third, clean3) == jsonl2, "the salvaged log's dump is not a fixed point");
  return 0;
}
