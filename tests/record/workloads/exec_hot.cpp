// Test workload: execs another program in the same process (PROCEXEC twice for one pid).
// Usage: exec_hot PROGRAM [ARGS...]
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::printf("exec %d\n", getpid());
  std::fflush(stdout);
  execv(argv[1], argv + 1);
  std::perror("execv");
  return 127;
}
