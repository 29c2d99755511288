// --format=jsonl: one JSON object per record (docs/jsonl.md), built by the library's
// pmclog::append_json so that pmclog-write reads back exactly what we print.
#include "formatter.h"
#include "pmclog/json.h"

namespace dump {

namespace {

class JsonlFormatter : public Formatter {
 public:
  void record(const pmclog::Record& r, const LogState& st, Output& out) override {
    pmclog::append_json(r, st.abi, out.buf);
    out.buf += '\n';
    out.maybe_flush();
  }
};

}  // namespace

std::unique_ptr<Formatter> make_jsonl_formatter() { return std::make_unique<JsonlFormatter>(); }

}  // namespace dump
