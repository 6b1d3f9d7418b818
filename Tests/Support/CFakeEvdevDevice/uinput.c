// A fake /dev/uinput: answers the UI_* ioctls for fds registered here (the write end
// of a pipe, or /dev/null) and remembers what the writer declared, so the real
// VirtualDevice code runs in-process; the events it writes go into the pipe, where
// the test reads them back. Every other fd goes to the kernel (see fake.c's ioctl).
#include "CFakeEvdevDevice.h"

#include <errno.h>
#include <linux/uinput.h>
#include <pthread.h>
#include <string.h>

#define MAX_UINPUTS 16

struct fake_uinput {
    int fd;
    int created;
    int fail_errno;
    char name[UINPUT_MAX_NAME_SIZE];
    unsigned char evbits[EV_CNT / 8 + 1];
    unsigned char keybits[KEY_CNT / 8 + 1];
    unsigned char relbits[REL_CNT / 8 + 1];
    unsigned char absbits[ABS_CNT / 8 + 1];
    unsigned char mscbits[MSC_CNT / 8 + 1];
    unsigned char props[INPUT_PROP_CNT / 8 + 1];
    struct input_absinfo abs[ABS_CNT];
    struct input_id id;
};

static struct fake_uinput uinputs[MAX_UINPUTS];
static pthread_mutex_t ulock = PTHREAD_MUTEX_INITIALIZER;

static struct fake_uinput *ufind(int fd) {
    for (int i = 0; i < MAX_UINPUTS; i++)
        if (uinputs[i].fd == fd && fd > 0) return &uinputs[i];
    return NULL;
}

static void set(unsigned char *mask, unsigned bit, unsigned count) { if (bit < count) mask[bit / 8] |= 1 << (bit % 8); }
static int has(const unsigned char *mask, unsigned bit, unsigned count) { return bit < count && (mask[bit / 8] >> (bit % 8)) & 1; }

int cfake_uinput_register(int fd) {
    pthread_mutex_lock(&ulock);
    for (int i = 0; i < MAX_UINPUTS; i++)
        if (uinputs[i].fd == fd) uinputs[i].fd = 0; /* a closed fake's number, reused */
    for (int i = 0; i < MAX_UINPUTS; i++) {
        if (uinputs[i].fd <= 0) {
            memset(&uinputs[i], 0, sizeof uinputs[i]);
            uinputs[i].fd = fd;
            pthread_mutex_unlock(&ulock);
            return 0;
        }
    }
    pthread_mutex_unlock(&ulock);
    return -1;
}

void cfake_uinput_unregister(int fd) {
    pthread_mutex_lock(&ulock);
    struct fake_uinput *u = ufind(fd);
    if (u) u->fd = 0;
    pthread_mutex_unlock(&ulock);
}

#define WITH_UINPUT(fd, dflt, body) do { int r_ = dflt; pthread_mutex_lock(&ulock); struct fake_uinput *u = ufind(fd); if (u) { body; } pthread_mutex_unlock(&ulock); return r_; } while (0)

int cfake_uinput_created(int fd) { WITH_UINPUT(fd, -1, r_ = u->created); }
int cfake_uinput_has(int fd, unsigned type, unsigned code) {
    WITH_UINPUT(fd, 0, r_ = has(u->evbits, type, EV_CNT) && (type == EV_KEY ? has(u->keybits, code, KEY_CNT)
                                                         : type == EV_REL ? has(u->relbits, code, REL_CNT)
                                                         : type == EV_ABS ? has(u->absbits, code, ABS_CNT)
                                                         : type == EV_MSC ? has(u->mscbits, code, MSC_CNT) : 1));
}
int cfake_uinput_has_property(int fd, unsigned property) { WITH_UINPUT(fd, 0, r_ = has(u->props, property, INPUT_PROP_CNT)); }
int cfake_uinput_absinfo(int fd, unsigned code, int32_t *minimum, int32_t *maximum, int32_t *resolution) {
    WITH_UINPUT(fd, -1, if (code < ABS_CNT) { *minimum = u->abs[code].minimum; *maximum = u->abs[code].maximum;
                                              *resolution = u->abs[code].resolution; r_ = 0; });
}
int cfake_uinput_id(int fd, uint16_t *bustype, uint16_t *vendor, uint16_t *product) {
    WITH_UINPUT(fd, -1, *bustype = u->id.bustype; *vendor = u->id.vendor; *product = u->id.product; r_ = 0);
}
int cfake_uinput_key_count(int fd) {
    WITH_UINPUT(fd, -1, r_ = 0; for (unsigned k = 0; k < KEY_CNT; k++) r_ += has(u->keybits, k, KEY_CNT));
}
int cfake_uinput_name(int fd, char *buf, int len) {
    WITH_UINPUT(fd, -1, strncpy(buf, u->name, (size_t)len - 1); buf[len - 1] = 0; r_ = 0);
}

int cfake_uinput_ioctl(int fd, unsigned long request, void *arg) {
    pthread_mutex_lock(&ulock);
    struct fake_uinput *u = ufind(fd);
    int rc = -2;
    if (u) {
        rc = 0;
        unsigned long value = (unsigned long)arg;
        if (request == UI_SET_EVBIT) set(u->evbits, (unsigned)value, EV_CNT);
        else if (request == UI_SET_KEYBIT) set(u->keybits, (unsigned)value, KEY_CNT);
        else if (request == UI_SET_RELBIT) set(u->relbits, (unsigned)value, REL_CNT);
        else if (request == UI_SET_ABSBIT) set(u->absbits, (unsigned)value, ABS_CNT);
        else if (request == UI_SET_MSCBIT) set(u->mscbits, (unsigned)value, MSC_CNT);
        else if (request == UI_SET_PROPBIT) set(u->props, (unsigned)value, INPUT_PROP_CNT);
        else if (request == UI_SET_SWBIT || request == UI_SET_LEDBIT) {}
        else if (request == UI_ABS_SETUP) {
            struct uinput_abs_setup *a = arg;
            if (a->code < ABS_CNT) u->abs[a->code] = a->absinfo;
        } else if (request == UI_DEV_SETUP) {
            memcpy(u->name, ((struct uinput_setup *)arg)->name, UINPUT_MAX_NAME_SIZE);
            u->id = ((struct uinput_setup *)arg)->id;
        }
        else if (request == UI_DEV_CREATE) u->created = 1;
        else if (request == UI_DEV_DESTROY) u->created = 0;
        else if (_IOC_NR(request) == _IOC_NR(UI_GET_SYSNAME(0))) strncpy((char *)arg, "input-fake", _IOC_SIZE(request));
        else { errno = EINVAL; rc = -1; }
    }
    pthread_mutex_unlock(&ulock);
    return rc;
}
