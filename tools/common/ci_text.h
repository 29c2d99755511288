// Text for continuous-integration readers, as pmclog-validate and pmclog-report's gate write
// them: GitHub Actions workflow commands and JUnit XML.
#pragma once

#include <string>
#include <string_view>

namespace pmclog::tools {

// A workflow command's message ("::error ...::DATA"): % \r \n become %25 %0D %0A, as the
// Actions toolkit escapes them.
std::string github_data(std::string_view s);
// A property value ("file=VALUE,title=VALUE"): github_data, and : and , too (%3A %2C).
std::string github_property(std::string_view s);

// XML 1.0 text: the five entities escaped, and what XML 1.0 does not allow even as a
// reference (control characters; the noncharacters U+FFFE and U+FFFF, valid UTF-8 that
// escaped() keeps) shown as \xNN and \uFFFE. Untrusted text has already been through
// display_path() or escaped(), so the control characters are a second safety net.
std::string xml_text(std::string_view s);

}  // namespace pmclog::tools
