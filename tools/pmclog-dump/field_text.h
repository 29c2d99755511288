// How the text format shows one field's value: chosen by the field's identity and layout
// type, so every record type's line comes from its Layout, with no per-type code.
#pragma once

#include <string>

#include "log_state.h"
#include "pmclog/layout.h"
#include "pmclog/record.h"

namespace dump {

// Appends "name=value" (with a decoded form in parentheses where one helps) for one field
// of the record's layout. Pad and unwritten fields append nothing; returns false then.
bool append_field(std::string& out, const pmclog::Record& r, const pmclog::FieldSpec& f,
                  const LogState& st);

// The decoded pmc id, e.g. "cpu=2 mode=SC class=7 row=1" or "cpu=any mode=TS ...".
std::string pmcid_parts(uint32_t id, pmclog::Generation g);
void append_pmcid_parts(std::string& out, uint32_t id, pmclog::Generation g);

}  // namespace dump
