// The "PMCL" container that `pmc record` writes in front of the kernel's log stream
// (format.md §18): an 8-byte file header, then 8-byte info headers each followed by its
// payload, up to a DONE info; the pmclog stream (INITIALIZE first) follows directly. Every
// part is a native struct of the recording host, so the magic's byte order is the log's.
// This is the one definition of its layout: parse (with file offsets), encode, the JSON
// Lines form (docs/jsonl.md) and the problems a validator reports.
//
// Memory: a parsed Container owns copies of its parts (strings, CPUID leaves, unknown
// infos). Threads: the functions are reentrant. Errors: parsing reports what is wrong as
// ContainerIssue values (with file offsets); only damage that leaves no stream is fatal.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmclog/abi.h"
#include "pmclog/error.h"

namespace pmclog {

inline constexpr uint32_t kContainerMagic = 0x504D434C;  // "PMCL" as a native u32
inline constexpr size_t kContainerHeaderSize = 8;        // u32 magic, u16 version, u16 arch
inline constexpr size_t kInfoHeaderSize = 8;   // u8 type, u8 reserved, u16 length, u32 reserved
inline constexpr size_t kSysinfoSize = 192;    // three 64-byte NUL-padded strings
inline constexpr size_t kSysinfoStringSize = 64;
inline constexpr size_t kCpuidLeafSize = 16;   // eax, ebx, ecx, edx
inline constexpr uint16_t kContainerVersionMax = 0;

enum class ContainerArch : uint16_t { other = 0, amd64 = 1, arm64 = 2, ppc64 = 3, riscv64 = 4, arm = 5 };
enum class InfoType : uint8_t { done = 0, sysinfo = 1, pmcinfo = 2, cpuid = 3 };

// "other" "amd64" "arm64" "ppc64" "riscv64" "arm", or nullopt for codes above 5.
std::optional<std::string_view> container_arch_name(uint16_t arch);
std::optional<uint16_t> parse_container_arch(std::string_view name);
// The address width a producer of that arch writes (8, or 4 for arm); nullopt for other/unknown.
std::optional<uint8_t> container_arch_width(uint16_t arch);
// "done" "sysinfo" "pmcinfo" "cpuid", or nullopt for other codes.
std::optional<std::string_view> info_type_name(uint8_t type);
std::optional<uint8_t> parse_info_type(std::string_view name);

struct ContainerInfo {
  uint64_t offset = 0;  // file offset of the info header
  uint8_t type = 0;
  uint8_t reserved8 = 0;    // uninitialised memory in the recorder: carried, never checked
  uint32_t reserved32 = 0;  // same
  std::vector<uint8_t> payload;  // the length field is payload.size()
  uint64_t payload_offset() const { return offset + kInfoHeaderSize; }
};

// SYSINFO's strings: the bytes up to the first NUL (all 64 when there is none).
struct Sysinfo {
  std::string cpu_model, os_release, kernel_build_id;
};
inline constexpr std::string_view kSysinfoNames[3] = {"cpu_model", "os_release",
                                                      "kernel_build_id"};
std::optional<Sysinfo> sysinfo_of(const ContainerInfo& info);  // nullopt unless 192 bytes
// The 64 bytes string `i` (0..2) of a 192-byte SYSINFO payload.
std::span<const uint8_t> sysinfo_field(const ContainerInfo& info, int i);

struct CpuidLeaf {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};
// The whole leaves of a CPUID payload (a partial last leaf is left out).
std::vector<CpuidLeaf> cpuid_leaves_of(const ContainerInfo& info, ByteOrder o);

struct Pmcinfo {
  uint64_t rate = 0;
  std::string event;  // up to the first NUL
};
std::optional<Pmcinfo> pmcinfo_of(const ContainerInfo& info, ByteOrder o);  // needs >= 8 bytes

struct Container {
  ByteOrder byte_order = ByteOrder::little;
  uint16_t version = 0;
  uint16_t arch = 0;
  std::vector<ContainerInfo> infos;  // in file order, DONE last
  uint64_t size = kContainerHeaderSize;  // bytes from the magic to the stream (its file offset)
};

// What is wrong with a container. Fatal problems leave no stream to read (open_log fails).
enum class ContainerProblem : uint8_t {
  truncated,        // fatal: the file header or an info header is cut by the end of the data
  past_end,         // fatal: an info's length runs past the end of the data
  no_done,          // fatal: the data ends after an info, with no DONE
  bad_version,      // fatal: version above kContainerVersionMax
  sysinfo_length,   // fatal: SYSINFO length other than 192 (the reader rejects it)
  cpuid_length,     // CPUID length not a multiple of 16
  pmcinfo_length,   // PMCINFO shorter than its u64 rate
  done_length,      // DONE with a payload
  unknown_arch,     // arch code above 5
  unknown_info,     // an info type this library does not know: skipped by its length
};
std::string_view container_problem_id(ContainerProblem p);  // e.g. "container-truncated"
bool container_problem_fatal(ContainerProblem p);

struct ContainerIssue {
  ContainerProblem problem;
  uint64_t offset = 0;  // file offset of the part concerned
  std::string message;  // names the offset, the value and the bound
};

struct ContainerParse {
  std::optional<Container> container;  // nullopt: no PMCL magic (a bare log)
  std::vector<ContainerIssue> issues;  // in file order
  bool fatal() const;
  const ContainerIssue* first_fatal() const;
};

// True when the bytes start with the magic in either byte order (4 bytes needed).
bool has_container_magic(std::span<const uint8_t> first);

// Parses the container at the start of `data` (file offsets count from data[0]). `complete`:
// `data` is the whole input, so a part cut by its end is damage; otherwise (a prefix of a
// stream) the message says the container is longer than the bytes examined.
ContainerParse parse_container(std::span<const uint8_t> data, bool complete = true);

// Appends the container's bytes (header, then each info as given, DONE included when it is
// in `infos`): the exact bytes parse_container read. Error (value_out_of_range) for a payload
// above 65535 bytes.
Result<size_t> encode_container(const Container& c, std::vector<uint8_t>& out);
Result<size_t> encode_container_header(const Container& c, std::vector<uint8_t>& out);
Result<size_t> encode_container_info(const ContainerInfo& info, ByteOrder o,
                                     std::vector<uint8_t>& out);

// Payload builders.
ContainerInfo make_sysinfo(const Sysinfo& s);  // strings cut to 63 bytes, NUL-padded
ContainerInfo make_cpuid(std::span<const CpuidLeaf> leaves, ByteOrder o);
ContainerInfo make_pmcinfo(const Pmcinfo& p, ByteOrder o);
ContainerInfo make_done();

// The container facts of the machine this runs on (format.md §18 as `pmc record` writes
// them): arch code, SYSINFO from /proc/cpuinfo, uname and /sys/kernel/notes, and on x86 the
// CPUID leaves, written in byte order `o` (the log's). Missing facts are empty strings.
Container host_container(ByteOrder o);
uint16_t host_arch();

// One line per part, for text output (strings escaped; CPUID leaves follow on indented lines): "@0 PMCL header: ...",
// "@8 SYSINFO (192 bytes): cpu_model=\"...\" ...".
std::string describe_container_header(const Container& c);
std::string describe_container_info(const ContainerInfo& info, ByteOrder o);

// JSON Lines (docs/jsonl.md): {"type":"pmcl-header",...} and {"type":"pmcl-info",...}.
void append_container_header_json(const Container& c, std::string& out);
void append_container_info_json(const ContainerInfo& info, ByteOrder o, std::string& out);
// A line is a container line when its "type" is "pmcl-header" or "pmcl-info".
bool is_container_json_type(std::string_view type);
// Whether a JSON line is one (cheap for the others: only lines that mention "pmcl- are parsed).
bool is_container_json_line(std::string_view line);
struct JsonContainerLine {
  bool header = false;  // pmcl-header (else pmcl-info)
  Container head;       // header: byte_order, version, arch
  bool has_byte_order = false;
  ContainerInfo info;   // info: type, reserved fields, payload
  bool has_offset = false;
  uint64_t offset = 0;
  bool has_file = false;  // "file" (a dump of several logs)
  std::string file;
};
// Parses one container line strictly (unknown members are errors naming them). `o` is the
// container's byte order (for PMCINFO's rate and CPUID's words).
Result<JsonContainerLine> parse_container_json(std::string_view line, ByteOrder o);

}  // namespace pmclog
