#define _GNU_SOURCE
#include "CFakeEvdevDevice.h"

#include <errno.h>
#include <linux/input.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_FAKES 32
#define MAX_SLOTS 16
#define MT_FIRST ABS_MT_TOUCH_MAJOR

struct fake {
    int fd;
    char name[256];
    struct input_id id;
    unsigned char props[INPUT_PROP_CNT / 8 + 1];
    unsigned char bits[EV_CNT][KEY_CNT / 8 + 1];
    struct input_absinfo abs[ABS_CNT];
    unsigned char keys[KEY_CNT / 8 + 1];
    int32_t slots[ABS_CNT - MT_FIRST][MAX_SLOTS];
    int ioctls;
    int grabbed;
    int grab_error;
};

static struct fake fakes[MAX_FAKES];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct fake *find(int fd) {
    for (int i = 0; i < MAX_FAKES; i++)
        if (fakes[i].fd == fd && fd > 0) return &fakes[i];
    return NULL;
}

static void setbit(unsigned char *mask, unsigned bit) { mask[bit / 8] |= 1 << (bit % 8); }

int cfake_register(int fd, const char *name, uint16_t bustype, uint16_t vendor, uint16_t product) {
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_FAKES; i++) {
        if (fakes[i].fd <= 0) {
            memset(&fakes[i], 0, sizeof fakes[i]);
            fakes[i].fd = fd;
            strncpy(fakes[i].name, name, sizeof fakes[i].name - 1);
            fakes[i].id.bustype = bustype;
            fakes[i].id.vendor = vendor;
            fakes[i].id.product = product;
            setbit(fakes[i].bits[0], EV_SYN);
            for (int s = 0; s < MAX_SLOTS; s++) fakes[i].slots[ABS_MT_TRACKING_ID - MT_FIRST][s] = -1;
            pthread_mutex_unlock(&lock);
            return 0;
        }
    }
    pthread_mutex_unlock(&lock);
    return -1;
}

void cfake_unregister(int fd) {
    pthread_mutex_lock(&lock);
    struct fake *f = find(fd);
    if (f) f->fd = 0;
    pthread_mutex_unlock(&lock);
}

#define WITH_FAKE(fd, body) do { pthread_mutex_lock(&lock); struct fake *f = find(fd); if (f) { body; } pthread_mutex_unlock(&lock); } while (0)

void cfake_set_property(int fd, unsigned p) { WITH_FAKE(fd, if (p < INPUT_PROP_CNT) setbit(f->props, p)); }

void cfake_set_code(int fd, unsigned type, unsigned code) {
    WITH_FAKE(fd, if (type < EV_CNT && code < KEY_CNT) { setbit(f->bits[0], type); setbit(f->bits[type], code); });
}

void cfake_set_absinfo(int fd, unsigned code, int32_t minimum, int32_t maximum, int32_t resolution) {
    WITH_FAKE(fd, if (code < ABS_CNT) {
        f->abs[code].minimum = minimum; f->abs[code].maximum = maximum; f->abs[code].resolution = resolution;
        setbit(f->bits[0], EV_ABS); setbit(f->bits[EV_ABS], code);
    });
}

void cfake_set_absinfo_noise(int fd, unsigned code, int32_t fuzz, int32_t flat) {
    WITH_FAKE(fd, if (code < ABS_CNT) { f->abs[code].fuzz = fuzz; f->abs[code].flat = flat; });
}

void cfake_set_abs_value(int fd, unsigned code, int32_t value) { WITH_FAKE(fd, if (code < ABS_CNT) f->abs[code].value = value); }

void cfake_set_slot_value(int fd, unsigned slot, unsigned code, int32_t value) {
    WITH_FAKE(fd, if (slot < MAX_SLOTS && code >= MT_FIRST && code < ABS_CNT) f->slots[code - MT_FIRST][slot] = value);
}

void cfake_set_key_state(int fd, unsigned code, int down) {
    WITH_FAKE(fd, if (code < KEY_CNT) { if (down) setbit(f->keys, code); else f->keys[code / 8] &= ~(1 << (code % 8)); });
}

int cfake_ioctl_count(int fd) { int n = -1; WITH_FAKE(fd, n = f->ioctls); return n; }
int cfake_grabbed(int fd) { int g = -1; WITH_FAKE(fd, g = f->grabbed); return g; }
void cfake_set_grab_error(int fd, int err) { WITH_FAKE(fd, f->grab_error = err); }

static int copy_out(void *arg, const void *src, size_t have, size_t len) {
    memset(arg, 0, len);
    memcpy(arg, src, have < len ? have : len);
    return (int)(have < len ? have : len);
}

static int answer(struct fake *f, unsigned long request, void *arg) {
    unsigned nr = _IOC_NR(request);
    size_t len = _IOC_SIZE(request);
    f->ioctls++;
    if (nr == _IOC_NR(EVIOCGVERSION)) { *(int *)arg = EV_VERSION; return 0; }
    if (nr == _IOC_NR(EVIOCGID)) { memcpy(arg, &f->id, sizeof f->id); return 0; }
    if (nr == _IOC_NR(EVIOCGREP)) { errno = EINVAL; return -1; }
    if (nr == _IOC_NR(EVIOCGRAB)) {
        if (f->grab_error) { errno = f->grab_error; return -1; }
        if ((arg != NULL) == f->grabbed) { errno = arg ? EBUSY : EINVAL; return -1; } /* as evdev answers */
        f->grabbed = arg != NULL;
        return 0;
    }
    if (nr == 0x06) return copy_out(arg, f->name, strlen(f->name) + 1, len);
    if (nr == 0x07 || nr == 0x08) { errno = ENOENT; return -1; } /* phys, uniq */
    if (nr == 0x09) return copy_out(arg, f->props, sizeof f->props, len);
    if (nr == 0x0a) { /* EVIOCGMTSLOTS: code, then a value per slot */
        uint32_t code = *(uint32_t *)arg;
        int32_t *values = (int32_t *)arg + 1;
        size_t n = len / sizeof(int32_t) - 1;
        for (size_t s = 0; s < n; s++)
            values[s] = (code >= MT_FIRST && code < ABS_CNT && s < MAX_SLOTS) ? f->slots[code - MT_FIRST][s] : 0;
        return 0;
    }
    if (nr == 0x18) return copy_out(arg, f->keys, sizeof f->keys, len);
    if (nr == 0x19 || nr == 0x1a || nr == 0x1b) { memset(arg, 0, len); return (int)len; }
    if (nr >= 0x20 && nr < 0x20 + EV_CNT) return copy_out(arg, f->bits[nr - 0x20], sizeof f->bits[0], len);
    if (nr >= 0x40 && nr < 0x40 + ABS_CNT) {
        unsigned code = nr - 0x40;
        struct input_absinfo a = f->abs[code];
        if (code >= MT_FIRST && code != ABS_MT_SLOT) a.value = f->slots[code - MT_FIRST][0];
        memcpy(arg, &a, sizeof a);
        return 0;
    }
    return 0; /* grab, clock id and the rest: accepted */
}

/* Interposes libc's ioctl for the whole test process. */
int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (_IOC_TYPE(request) == 'E') {
        pthread_mutex_lock(&lock);
        struct fake *f = find(fd);
        int rc = f ? answer(f, request, arg) : -2;
        pthread_mutex_unlock(&lock);
        if (rc != -2) return rc;
    }
    if (_IOC_TYPE(request) == 'U') {
        int rc = cfake_uinput_ioctl(fd, request, arg);
        if (rc != -2) return rc;
    }
    return (int)syscall(SYS_ioctl, fd, request, arg);
}

#include <sys/fsuid.h>
int cfake_setfsuid(unsigned uid) { return setfsuid(uid); }
