// Finding an object's separate debug file on this machine, for libdwfl's find_debuginfo.
#pragma once

#include <elfutils/libdwfl.h>

namespace pmcprofile {

// dwfl_standard_find_debuginfo's local search, by build id and then by .gnu_debuglink along
// the debuginfo path ("" is the object's folder, a relative element a folder under it, an
// absolute one has the object's folder appended), without its last step, asking a
// debuginfod server, unless DEBUGINFOD_URLS names one: elfutils 0.188 loads libdebuginfod,
// libcurl and some thirty libraries the first time a debug file is not found here, a tenth
// of a small report. The module's userdata (dwfl_module_info) must point to the
// debuginfo path as a std::string.
int find_local_debuginfo(Dwfl_Module* mod, void** userdata, const char* modname, Dwarf_Addr base,
                         const char* file_name, const char* debuglink_file,
                         GElf_Word debuglink_crc, char** debuginfo_file_name);

}  // namespace pmcprofile
