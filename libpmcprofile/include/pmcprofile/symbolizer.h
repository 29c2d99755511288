// Function names, source lines and inline chains for (object, address), in process, with
// elfutils' libdwfl: .symtab, then .dynsym, then a separate debug file (build id under
// DIR/.build-id/xx/rest.debug, then .gnu_debuglink) along the debug directories. Each object
// is opened once, and each distinct (object, address) is looked up once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pmcprofile/address_space.h"
#include "pmcprofile/objects.h"

namespace pmcprofile {

struct SymbolOptions {
  bool demangle = true;  // C++ names demangled (--no-demangle keeps them raw)
  bool lines = false;    // file:line of each frame (DWARF)
  bool inlines = false;  // the inlined calls at an address, as frames of their own (DWARF)
  // Searched for separate debug files before the sysroot's /usr/lib/debug and the host's.
  std::vector<std::string> debug_dirs;
};

struct SymbolFrame {
  std::string name;  // function (demangled unless asked otherwise)
  std::string file;  // with lines: source file ("" unknown)
  uint32_t line = 0;
  // 0: the function the address is in; k > 0: the k-th call inlined into it, each inside
  // the frame before it (a Symbolized's frames are in depth order).
  uint16_t inline_depth = 0;
  bool inlined() const { return inline_depth != 0; }
  uint64_t offset = 0;   // the address's distance from its symbol's start (perf's sym+0x...)
};

struct Symbolized {
  Unresolved why = Unresolved::none;  // object_missing or no_symbols when frames is empty
  std::vector<SymbolFrame> frames;    // outermost first: the function, then inlined callees
};

class Symbolizer {
 public:
  Symbolizer(ObjectTable& objects, SymbolOptions opt);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // `address` is in the object's own addresses; `caller` marks a return address, looked up
  // one byte before so that the call instruction's function and line are found.
  const Symbolized& lookup(ObjectId object, uint64_t address, bool caller);
  // The bytes of `object` looked up next (lookup_byte() of each address): lets the object
  // choose how to answer them (an index for many, one walk of its symbol table for a few).
  // The answers are the same.
  void expect_lookups(ObjectId object, std::vector<uint64_t> bytes);
  // The byte a lookup names: a return address's call instruction ends one byte before it.
  static uint64_t lookup_byte(uint64_t address, bool caller) {
    return caller && address > 0 ? address - 1 : address;
  }

  // The objects opened so far, and how many distinct addresses were looked up.
  size_t objects_opened() const;
  size_t addresses_looked_up() const;

  struct Module;

 private:
  Module& module(ObjectId id);
  ObjectTable& objects_;
  SymbolOptions opt_;
  std::string debuginfo_path_;
  struct State;
  std::unique_ptr<State> s_;
};

// The demangled form of a C++ (Itanium ABI) name; the name itself when it is not one.
std::string demangle(const std::string& name);

}  // namespace pmcprofile
