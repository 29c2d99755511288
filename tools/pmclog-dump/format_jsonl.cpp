// --format=jsonl: one JSON object per record (docs/jsonl.md), built by the library's
// pmclog::append_json so that pmclog-write reads back exactly what we print.
#include "formatter.h"
#include "pmclog/container.h"
#include "pmclog/json.h"
#include "pmclog/text.h"

namespace dump {

namespace {

class JsonlFormatter : public Formatter {
 public:
  explicit JsonlFormatter(bool with_file) : with_file_(with_file) {}
  void begin(const LogState& st, Output&) override {
    if (!with_file_) return;
    prefix_ = "{\"file\":";
    pmclog::append_json_string(prefix_, st.file);
    prefix_ += ',';
  }
  // One line per container part (docs/jsonl.md), before the records.
  void container(const pmclog::Container& c, const LogState&, Output& out) override {
    line([&](std::string& b) { pmclog::append_container_header_json(c, b); }, out);
    for (const auto& i : c.infos)
      line([&](std::string& b) { pmclog::append_container_info_json(i, c.byte_order, b); }, out);
  }
  template <class F>
  void line(F&& f, Output& out) {
    const size_t at = out.buf.size();
    f(out.buf);
    if (with_file_) out.buf.replace(at, 1, prefix_);
    out.buf += '\n';
  }
  void record(const pmclog::Record& r, const LogState& st, Output& out) override {
    if (with_file_) {
      // The library's object with the member spliced in after its opening brace.
      const size_t at = out.buf.size();
      pmclog::append_json(r, st.abi, out.buf);
      out.buf.replace(at, 1, prefix_);
    } else {
      pmclog::append_json(r, st.abi, out.buf);
    }
    if (r.kind == pmclog::Kind::pmcallocate) add_pmu_event_name(r, st, out.buf);
    out.buf += '\n';
    out.maybe_flush();
  }

 private:
  // An EV_PMU index means nothing without the recording system's table: such a line gets
  // "event_name", the name the table gives it or null (docs/jsonl.md; pmclog-write skips it).
  static void add_pmu_event_name(const pmclog::Record& r, const LogState& st, std::string& b) {
    const pmclog::AllocationEvent e = st.allocation(r);
    if (!e.pmu_index) return;
    b.pop_back();  // the object's closing brace
    b += ",\"event_name\":";
    if (e.name.empty()) b += "null";
    else pmclog::append_json_string(b, e.name);
    b += '}';
  }

  bool with_file_;
  std::string prefix_;  // {"file":NAME, for the current file
};

}  // namespace

std::unique_ptr<Formatter> make_jsonl_formatter(bool with_file) {
  return std::make_unique<JsonlFormatter>(with_file);
}

}  // namespace dump
