// The tests' support library (tests/common/support) on its own: what every other test relies
// on when it runs a program or reads a file.
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "support/files.h"
#include "support/process.h"
#include "support/scratch.h"

using namespace pmclog_test;
namespace fs = std::filesystem;

namespace {

// Each argument reaches the program as one word, never re-parsed by a shell.
TEST(Support, ArgumentsArePassedAsGiven) {
  const std::string odd = "a b 'c' \"d\" $HOME; `e` * \\ \n";
  const Ran r = run({"printf", "[%s]", odd, ""});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "[" + odd + "][]");
}

TEST(Support, StatusSignalAndMissingProgram) {
  EXPECT_EQ(run({"sh", "-c", "exit 3"}).status, 3);
  const Ran killed = run({"sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(killed.status, 128 + SIGTERM);
  EXPECT_EQ(killed.signal, SIGTERM);
  const Ran missing = run({"/nonexistent/program"});
  EXPECT_EQ(missing.status, 127);
  EXPECT_NE(missing.err.find("/nonexistent/program"), std::string::npos) << missing.err;
  EXPECT_EQ(run({"/"}).status, 126) << "a folder cannot be executed";
}

// Both streams are read as they come: a child filling both pipes does not stall.
TEST(Support, LargeOutputOnBothStreams) {
  const Ran r = bash("head -c 1000000 /dev/zero; head -c 300000 /dev/zero >&2; echo end >&2");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.size(), 1000000u);
  EXPECT_EQ(r.err.size(), 300004u);
}

TEST(Support, StandardInputChoices) {
  EXPECT_EQ(run({"cat"}).out, "") << "/dev/null by default";
  RunOptions data;
  data.stdin_data = std::string("x\0y\n", 4);
  EXPECT_EQ(run({"cat"}, data).out, std::string("x\0y\n", 4));
  ScratchDir d;
  write_file(d / "in", "from a file");
  RunOptions path;
  path.stdin_path = d.file("in");
  EXPECT_EQ(run({"cat"}, path).out, "from a file");
  RunOptions piped;
  piped.stdin_data = std::string(1 << 20, 'p');
  piped.stdin_pipe = true;
  const Ran whole = bash("[ -p /dev/stdin ] && wc -c", piped);
  EXPECT_EQ(whole.out, "1048576\n") << whole.err;
  const Ran early = run({"head", "-c", "1"}, piped);  // gone long before the data is given
  EXPECT_EQ(early.status, 0);
  EXPECT_EQ(early.out, "p");
  RunOptions closed;
  closed.stdin_closed = true;
  EXPECT_EQ(bash("if [ -e /dev/fd/0 ]; then echo open; else echo closed; fi", closed).out, "closed\n");
}

TEST(Support, StandardOutputToAFileFolderAndEnvironment) {
  ScratchDir d;
  RunOptions o;
  o.stdout_path = d.file("out");
  o.cwd = d.str();
  o.env = {"PMCLOG_SUPPORT_TEST=set here", "HOME"};
  const Ran r = bash("pwd; echo \"$PMCLOG_SUPPORT_TEST\"; echo \"${HOME-unset}\"", o);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(d / "out"), fs::canonical(d.path()).string() + "\nset here\nunset\n");
}

TEST(Support, DuringSeesTheRunningChild) {
  bool ended_before = true;
  const Ran r = run({"sleep", "30"}, {}, [&](pid_t pid) {
    ended_before = has_ended(pid);
    kill(pid, SIGKILL);
    while (!has_ended(pid)) usleep(1000);
  });
  EXPECT_FALSE(ended_before);
  EXPECT_EQ(r.signal, SIGKILL);
}

// What a child leaves running may keep its pipes open: the run ends anyway, with what the
// child itself wrote.
TEST(Support, WhatTheChildLeftRunningDoesNotHoldTheRun) {
  const auto start = std::chrono::steady_clock::now();
  const Ran r = bash("echo before; sleep 6 & exit 4");
  EXPECT_EQ(r.status, 4);
  EXPECT_EQ(r.out, "before\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(Support, ShellQuoteSurvivesBash) {
  const std::string odd = "it's $x \"y\" `z`";
  EXPECT_EQ(bash("printf %s " + shell_quote(odd)).out, odd);
}

TEST(Support, WordsAndConcat) {
  EXPECT_EQ(words("  -n 10  --seed 2 "), (std::vector<std::string>{"-n", "10", "--seed", "2"}));
  EXPECT_EQ(words(""), std::vector<std::string>{});
  EXPECT_EQ(concat({{"a"}, words("b c"), {}, {"d e"}}),
            (std::vector<std::string>{"a", "b", "c", "d e"}));
}

TEST(Support, FilesAndScratchDir) {
  fs::path kept;
  {
    ScratchDir d;
    kept = d.path();
    ASSERT_TRUE(fs::is_directory(kept));
    write_file(d / "a", std::string("bytes\0more", 10));
    write_file(d / "b", std::vector<uint8_t>{1, 2, 255});
    EXPECT_EQ(slurp(d / "a"), std::string("bytes\0more", 10));
    EXPECT_EQ(slurp_bytes(d / "b"), (std::vector<uint8_t>{1, 2, 255}));
    EXPECT_EQ(slurp(d / "missing"), "");
    EXPECT_THROW(write_file(d / "no-folder" / "x", "y"), std::runtime_error);
    fs::create_directory(d / "sub");
    EXPECT_EQ(d.listing(), "a\nb\nsub\n");
    EXPECT_EQ(d.names(), (std::vector<std::string>{"a", "b", "sub"}));
    EXPECT_EQ(d.file("a"), (d.path() / "a").string());
  }
  EXPECT_FALSE(fs::exists(kept)) << "removed with its contents";
}

}  // namespace
