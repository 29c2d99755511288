// Finding a file named by a log inside a sysroot (perf's --symfs, pmcstat's -r), so that a
// path from the log can never lead outside it: the path is walked one component at a time,
// as if the process were chrooted there. ".." at the root stays at the root, an absolute
// symlink restarts at the root, and a relative one is walked the same way.
#pragma once

#include <optional>
#include <string>

namespace pmcprofile {

// The host path of `path` (absolute or relative to the root) under `root`, when it names a
// regular file there after following at most 40 symlinks; nullopt otherwise. With an empty
// root the path is used as is (it must be absolute and name a regular file).
std::optional<std::string> resolve_in_sysroot(const std::string& root, const std::string& path);

}  // namespace pmcprofile
