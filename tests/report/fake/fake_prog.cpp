// A small fixed-address executable that plays /usr/bin/fakeprog in a fake sysroot. Never run.
extern "C" {
__attribute__((noinline, used)) int fakeprog_work(int x) { return x * 3 + 1; }
__attribute__((noinline, used)) int fakeprog_child_work(int x) { return x * 5 + 2; }
}
int main(int argc, char**) { return fakeprog_work(argc); }
