// The Linux calls that Swift's Glibc module does not expose (epoll, timerfd,
// signalfd, inotify, pidfd, evdev ioctls). Each wrapper is a one-line pass-through
// named after the C function it wraps; errors come back as -1 with errno set.
#ifndef CLINUX_H
#define CLINUX_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>

// epoll(7)
struct clinux_epoll_event {
    uint32_t events;
    uint64_t data;
};
int clinux_epoll_create(void);
int clinux_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
int clinux_epoll_del(int epfd, int fd);
int clinux_epoll_mod(int epfd, int fd, uint32_t events, uint64_t data);
int clinux_epoll_wait(int epfd, struct clinux_epoll_event *events, int max, int timeout_ms);
extern const uint32_t CLINUX_EPOLLIN;
extern const uint32_t CLINUX_EPOLLOUT;
extern const uint32_t CLINUX_EPOLLERR;
extern const uint32_t CLINUX_EPOLLHUP;
extern const uint32_t CLINUX_EPOLLRDHUP;

// timerfd_create(2): CLOCK_MONOTONIC, non-blocking, close-on-exec.
int clinux_timerfd_create(void);
/// Arms the timer to fire once at an absolute CLOCK_MONOTONIC time in nanoseconds; 0 disarms.
int clinux_timerfd_arm_absolute(int fd, int64_t monotonic_ns);

// signalfd(2) over a set of signals that the caller has blocked.
int clinux_signalfd(const sigset_t *mask);
/// Reads one signalfd_siginfo; returns the signal number, 0 when drained, -1 on error.
int clinux_signalfd_read(int fd, int32_t *pid, int32_t *status);

// inotify(7)
int clinux_inotify_init(void);
int clinux_inotify_add_watch(int fd, const char *path, uint32_t mask);
extern const uint32_t CLINUX_IN_CLOSE_WRITE, CLINUX_IN_MOVED_TO, CLINUX_IN_CREATE,
    CLINUX_IN_DELETE, CLINUX_IN_MOVED_FROM, CLINUX_IN_ATTRIB, CLINUX_IN_DELETE_SELF,
    CLINUX_IN_MOVE_SELF, CLINUX_IN_IGNORED;

// pidfd_open(2), through syscall(2): glibc 2.36 has no wrapper in our headers.
int clinux_pidfd_open(pid_t pid);

// evdev ioctls that are function-like macros and so do not import.
int clinux_evdev_grab(int fd, int grab);
int clinux_evdev_set_clock_monotonic(int fd);

// getrandom(2): sys/random.h is not in Swift's Glibc module. Returns the byte count, or -1.
long clinux_getrandom(void *buf, unsigned long len);

// pipe2(2): declared under _GNU_SOURCE only.
int clinux_pipe2(int fds[2], int flags);

// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC: declared under _GNU_SOURCE only.
int clinux_accept4_nonblocking(int fd);

// posix_spawn_file_actions_addclosefrom_np(3) (glibc 2.34): declared under _GNU_SOURCE only,
// which Swift's Glibc module does not set. Closes every fd >= `from` in the child.
int clinux_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from);

// strerrorname_np(3), strerrordesc_np(3) (glibc 2.32): declared under _GNU_SOURCE only.
// "ENOENT" and "No such file or directory"; NULL for a number that is no errno.
const char *clinux_strerrorname(int err);
const char *clinux_strerrordesc(int err);
// sigabbrev_np(3): "TERM" for SIGTERM, NULL for no signal.
const char *clinux_sigabbrev(int sig);

// prctl(2) PR_SET_NAME (variadic, so it does not import): the process's name in ps
// and pgrep -x, at most 15 bytes.
int clinux_set_process_name(const char *name);

// uinput(4): the ioctls are function-like macros and so do not import.
int clinux_ui_set_evbit(int fd, int type);
int clinux_ui_set_keybit(int fd, int code);
int clinux_ui_set_relbit(int fd, int code);
int clinux_ui_set_absbit(int fd, int code);
int clinux_ui_set_mscbit(int fd, int code);
int clinux_ui_set_swbit(int fd, int code);
int clinux_ui_set_ledbit(int fd, int code);
int clinux_ui_set_propbit(int fd, int property);
/// UI_ABS_SETUP: an absolute axis's range, noise and resolution (units/mm).
int clinux_ui_abs_setup(int fd, uint16_t code, int32_t value, int32_t minimum, int32_t maximum,
                        int32_t fuzz, int32_t flat, int32_t resolution);
/// UI_DEV_SETUP: name, ids; no force feedback.
int clinux_ui_dev_setup(int fd, const char *name, uint16_t bustype, uint16_t vendor, uint16_t product, uint16_t version);
int clinux_ui_dev_create(int fd);
int clinux_ui_dev_destroy(int fd);
/// UI_GET_SYSNAME: the created device's name under /sys/devices/virtual/input (`input42`).
int clinux_ui_get_sysname(int fd, char *buf, int len);
/// One event to write to a uinput device (the kernel stamps the time).
struct clinux_input_event {
    uint16_t type;
    uint16_t code;
    int32_t value;
};
/// write(2) of `count` events as struct input_event, in one call; returns bytes written or -1.
long clinux_uinput_write(int fd, const struct clinux_input_event *events, int count);

/// Current CLOCK_MONOTONIC in nanoseconds (the daemon's clock; the engine never reads it).
int64_t clinux_monotonic_ns(void);

/// malloc_trim(0): gives the heap's free memory back to the kernel (glibc keeps it
/// otherwise, so a peak stays in the resident size); 1 if any was released.
int clinux_malloc_trim(void);

// dlopen(3) of `soname` (RTLD_NOW | RTLD_LOCAL) and dlsym(3) of each symbol into its
// pointer: all of them, or none (a library missing one is closed and not used). NULL
// once loaded (again: at once, `*loaded` set), or why not (valid until the next call).
// The libraries loaded this way (CDesktop's, CMicrohttpd's) are never linked.
struct clinux_symbol { const char *name; void **pointer; };
const char *clinux_load_library(const char *soname, const struct clinux_symbol *symbols, size_t count, void **loaded);

// The event stream's shared ring (memfd(2), seals, SCM_RIGHTS, and the ordering the
// ring's head and tail need: a writer's release stores, a reader's acquire loads).
/// memfd_create(2) with MFD_CLOEXEC | MFD_ALLOW_SEALING.
int clinux_memfd_create(const char *name);
/// fcntl(F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL): its size is fixed.
int clinux_memfd_seal_size(int fd);
/// Whether `fd`'s size is sealed (F_SEAL_SHRINK and F_SEAL_GROW): 1, 0, or -1.
int clinux_memfd_size_is_sealed(int fd);
/// sendmsg(2) of `len` bytes with `pass` attached (SCM_RIGHTS), MSG_NOSIGNAL.
long clinux_send_with_fd(int sock, const void *buf, unsigned long len, int pass);
/// recvmsg(2) into `buf`; a descriptor passed with the bytes (SCM_RIGHTS, received
/// close-on-exec) goes to `*received` (left alone if none came; extra ones are closed).
long clinux_recv_with_fd(int sock, void *buf, unsigned long len, int *received);
uint64_t clinux_load_acquire_u64(const uint64_t *p);
/// Every load before it completes before any load after it (a seqlock reader's fence).
uint64_t clinux_fence_then_load_u64(const uint64_t *p);
void clinux_store_release_u64(uint64_t *p, uint64_t v);
/// Stores `v`, then a release fence: a reader that sees any write after it and then
/// fences (`clinux_fence_then_load_u64`) sees `v` too (a seqlock writer's fence, as in
/// Boehm, "Can Seqlocks Get Along with Programming Language Memory Models?", 2012).
void clinux_store_then_fence_u64(uint64_t *p, uint64_t v);

#endif
