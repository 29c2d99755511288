// A Converter writing into a scratch M10 LP64 log, for tests that feed it perf events by
// hand and read back what it wrote.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "log_sink.h"
#include "record_conversion.h"
#include "record_test_support.h"

namespace rectest {

struct ConverterHarness {
  ScratchDir dir;
  std::string path;
  record::LogSink sink;
  std::unique_ptr<record::Converter> conv;

  explicit ConverterHarness(const record::ConversionConfig& cc, const std::string& name = "t.pmclog")
      : path(dir.file(name)),
        sink(pmclog::Abi::make(pmclog::Generation::M10, 8, pmclog::ByteOrder::little), path) {
    std::string err;
    EXPECT_TRUE(sink.open(err)) << err;
    pmclog::RecordValue init;  // readers detect the ABI from it
    init.kind = pmclog::Kind::initialize;
    init[pmclog::Field::version] = 0x0A000000;
    sink.emit(init, 1);
    conv = std::make_unique<record::Converter>(sink, cc);
  }

  // Ends the log with CLOSELOG at `end` and reads it back; the counting tests first let the
  // converter settle the counts of what is still running.
  Log finish(uint64_t end, const std::vector<record::PerfEvent>* final_reads = nullptr) {
    if (final_reads) conv->finish_deferred(*final_reads, end);
    pmclog::RecordValue c;
    c.kind = pmclog::Kind::closelog;
    sink.emit(c, end);
    std::string err;
    EXPECT_TRUE(sink.commit(err)) << err;
    return read_log(path);
  }
};

}  // namespace rectest
