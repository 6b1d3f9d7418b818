#define _GNU_SOURCE
#include "CLinux.h"

#include <dlfcn.h>
#include <errno.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <malloc.h>
#include <stdio.h>
#include <spawn.h>
#include <string.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

const uint32_t CLINUX_EPOLLIN = EPOLLIN;
const uint32_t CLINUX_EPOLLOUT = EPOLLOUT;
const uint32_t CLINUX_EPOLLRDHUP = EPOLLRDHUP;
const uint32_t CLINUX_EPOLLERR = EPOLLERR;
const uint32_t CLINUX_EPOLLHUP = EPOLLHUP;

int clinux_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int clinux_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev = { .events = events, .data.u64 = data };
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

int clinux_epoll_del(int epfd, int fd) { return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL); }

int clinux_epoll_mod(int epfd, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev = { .events = events, .data.u64 = data };
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
}

int clinux_epoll_wait(int epfd, struct clinux_epoll_event *out, int max, int timeout_ms) {
    struct epoll_event evs[64];
    if (max > 64) max = 64;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        out[i].events = evs[i].events;
        out[i].data = evs[i].data.u64;
    }
    return n;
}

int clinux_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

int clinux_timerfd_arm_absolute(int fd, int64_t ns) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (ns > 0) {
        spec.it_value.tv_sec = ns / 1000000000;
        spec.it_value.tv_nsec = ns % 1000000000;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int clinux_signalfd(const sigset_t *mask) { return signalfd(-1, mask, SFD_NONBLOCK | SFD_CLOEXEC); }

int clinux_signalfd_read(int fd, int32_t *pid, int32_t *status) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n < 0) return (errno == EAGAIN) ? 0 : -1;
    if (n != (ssize_t)sizeof info) return 0;
    if (pid) *pid = (int32_t)info.ssi_pid;
    if (status) *status = info.ssi_status;
    return (int)info.ssi_signo;
}

const uint32_t CLINUX_IN_CLOSE_WRITE = IN_CLOSE_WRITE, CLINUX_IN_MOVED_TO = IN_MOVED_TO,
    CLINUX_IN_CREATE = IN_CREATE, CLINUX_IN_DELETE = IN_DELETE, CLINUX_IN_MOVED_FROM = IN_MOVED_FROM,
    CLINUX_IN_ATTRIB = IN_ATTRIB, CLINUX_IN_DELETE_SELF = IN_DELETE_SELF,
    CLINUX_IN_MOVE_SELF = IN_MOVE_SELF, CLINUX_IN_IGNORED = IN_IGNORED;

int clinux_inotify_init(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

int clinux_inotify_add_watch(int fd, const char *path, uint32_t mask) {
    return inotify_add_watch(fd, path, mask);
}

int clinux_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int clinux_evdev_grab(int fd, int grab) { return ioctl(fd, EVIOCGRAB, (void *)(long)grab); }

int clinux_evdev_set_clock_monotonic(int fd) {
    int clock = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clock);
}

long clinux_getrandom(void *buf, unsigned long len) { return getrandom(buf, len, 0); }

int clinux_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int clinux_accept4_nonblocking(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int clinux_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

const char *clinux_strerrorname(int err) { return strerrorname_np(err); }

const char *clinux_strerrordesc(int err) { return strerrordesc_np(err); }

const char *clinux_sigabbrev(int sig) { return sigabbrev_np(sig); }

int clinux_set_process_name(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

int64_t clinux_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int clinux_malloc_trim(void) { return malloc_trim(0); }

int clinux_ui_set_evbit(int fd, int type) { return ioctl(fd, UI_SET_EVBIT, type); }
int clinux_ui_set_keybit(int fd, int code) { return ioctl(fd, UI_SET_KEYBIT, code); }
int clinux_ui_set_relbit(int fd, int code) { return ioctl(fd, UI_SET_RELBIT, code); }
int clinux_ui_set_absbit(int fd, int code) { return ioctl(fd, UI_SET_ABSBIT, code); }
int clinux_ui_set_mscbit(int fd, int code) { return ioctl(fd, UI_SET_MSCBIT, code); }
int clinux_ui_set_swbit(int fd, int code) { return ioctl(fd, UI_SET_SWBIT, code); }
int clinux_ui_set_ledbit(int fd, int code) { return ioctl(fd, UI_SET_LEDBIT, code); }
int clinux_ui_set_propbit(int fd, int property) { return ioctl(fd, UI_SET_PROPBIT, property); }

int clinux_ui_abs_setup(int fd, uint16_t code, int32_t value, int32_t minimum, int32_t maximum,
                        int32_t fuzz, int32_t flat, int32_t resolution) {
    struct uinput_abs_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.code = code;
    setup.absinfo.value = value;
    setup.absinfo.minimum = minimum;
    setup.absinfo.maximum = maximum;
    setup.absinfo.fuzz = fuzz;
    setup.absinfo.flat = flat;
    setup.absinfo.resolution = resolution;
    return ioctl(fd, UI_ABS_SETUP, &setup);
}

int clinux_ui_dev_setup(int fd, const char *name, uint16_t bustype, uint16_t vendor, uint16_t product, uint16_t version) {
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    snprintf(setup.name, sizeof setup.name, "%s", name);
    setup.id.bustype = bustype;
    setup.id.vendor = vendor;
    setup.id.product = product;
    setup.id.version = version;
    return ioctl(fd, UI_DEV_SETUP, &setup);
}

int clinux_ui_dev_create(int fd) { return ioctl(fd, UI_DEV_CREATE); }
int clinux_ui_dev_destroy(int fd) { return ioctl(fd, UI_DEV_DESTROY); }
int clinux_ui_get_sysname(int fd, char *buf, int len) { return ioctl(fd, UI_GET_SYSNAME(len), buf); }

long clinux_uinput_write(int fd, const struct clinux_input_event *events, int count) {
    struct input_event out[64];
    if (count < 0 || count > 64) { errno = EINVAL; return -1; }
    memset(out, 0, sizeof(struct input_event) * (size_t)count);
    for (int i = 0; i < count; i++) {
        out[i].type = events[i].type;
        out[i].code = events[i].code;
        out[i].value = events[i].value;
    }
    return write(fd, out, sizeof(struct input_event) * (size_t)count);
}

const char *clinux_load_library(const char *soname, const struct clinux_symbol *symbols, size_t count, void **loaded) {
    static char why[512];
    if (*loaded) return NULL;
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(why, sizeof why, "%s", dlerror());
        return why;
    }
    for (size_t i = 0; i < count; i++) {
        if (!(*symbols[i].pointer = dlsym(handle, symbols[i].name))) {
            snprintf(why, sizeof why, "%s has no %s (too old?)", soname, symbols[i].name);
            for (size_t j = 0; j < i; j++) *symbols[j].pointer = NULL;
            dlclose(handle);
            return why;
        }
    }
    *loaded = handle;
    return NULL;
}

int clinux_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); }

int clinux_memfd_seal_size(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL); }

int clinux_memfd_size_is_sealed(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    if (seals < 0) return -1;
    return (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) == (F_SEAL_SHRINK | F_SEAL_GROW);
}

long clinux_send_with_fd(int sock, const void *buf, unsigned long len, int pass) {
    struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    memset(&control, 0, sizeof control);
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf };
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &pass, sizeof(int));
    return sendmsg(sock, &msg, MSG_NOSIGNAL);
}

long clinux_recv_with_fd(int sock, void *buf, unsigned long len, int *received) {
    struct iovec iov = { .iov_base = buf, .iov_len = len };
    union { char buf[CMSG_SPACE(sizeof(int) * 4)]; struct cmsghdr align; } control;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf };
    long n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (*received < 0) *received = fd; else close(fd);
        }
    }
    return n;
}

uint64_t clinux_load_acquire_u64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

uint64_t clinux_fence_then_load_u64(const uint64_t *p) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

void clinux_store_release_u64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

void clinux_store_then_fence_u64(uint64_t *p, uint64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
    // Release, not seq_cst: only writes after it must not pass it (a plain compiler
    // barrier on x86, where the mfence of seq_cst cost a writer about 100 cycles a record).
    __atomic_thread_fence(__ATOMIC_RELEASE);
}
