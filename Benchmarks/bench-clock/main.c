// gestured-bench-clock: the command the latency benchmark binds to a gesture. The
// first thing its main() does is read CLOCK_MONOTONIC: the instant the command's
// process is running, on the clock the benchmark read when it handed over the
// SYN_REPORT. It prints that (ns), its pid and its parent's pid: the parent is the
// benchmark itself when /bin/sh exec'd the command in place of the shell.
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("%lld %d %d\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec, (int)getpid(), (int)getppid());
    return 0;
}
