#include "run_main.h"

#include <signal.h>

#include <boost/program_options/errors.hpp>
#include <new>

#include "temp_cleanup.h"

namespace pmclog::tools {

int run_main(const ToolSpec& spec, int argc, char** argv,
             const std::function<int(int, char**)>& body) {
  Diagnostics& d = diag();
  d.set_tool(spec.name);
  if (spec.cleanup_on_signals)
    install_cleanup_signal_handlers();  // SIGPIPE ignored too
  else
    signal(SIGPIPE, SIG_IGN);  // a closed pipe is an EPIPE value, not a death
  int status = 0;
  try {
    status = body(argc, argv);
  } catch (const UsageError& e) {
    status = d.usage(e.what());
  } catch (const boost::program_options::error& e) {
    status = d.usage(e.what());
  } catch (const Failure& e) {
    d.error(e.what());
    status = code(e.status);
  } catch (const ClosedPipe&) {
    status = d.status();
  } catch (const std::bad_alloc&) {
    d.error("out of memory");
    status = code(spec.failure);
  } catch (const std::exception& e) {
    d.error(std::string("internal error: ") + e.what());
    status = code(spec.failure);
  }
  const OutputError e = standard_output().flush();
  if (e && e.kind != OutputError::Kind::closed_pipe) {
    d.error(e.message);
    if (status < code(Exit::io)) status = code(Exit::io);
  }
  return status;
}

}  // namespace pmclog::tools
