// Test support only: makes a pipe look like an evdev device to the real libevdev.
// This target defines `ioctl` itself and answers the EVIOCG* queries for the fds
// registered here from a description the test gives; every other fd and request goes
// to the kernel. libevdev then reads events written into the pipe exactly as from a
// device node, SYN_DROPPED resync included. It also plays /dev/uinput (uinput.c) for
// gestured's own virtual device. Never linked into the shipped binary.
#ifndef CFAKEEVDEVDEVICE_H
#define CFAKEEVDEVDEVICE_H

#include <stdint.h>

/// Registers `fd` (the read end of a pipe) as a fake device named `name`. 0 on
/// success, -1 when the table is full.
int cfake_register(int fd, const char *name, uint16_t bustype, uint16_t vendor, uint16_t product);
void cfake_unregister(int fd);
void cfake_set_property(int fd, unsigned property);
void cfake_set_code(int fd, unsigned type, unsigned code);
void cfake_set_absinfo(int fd, unsigned code, int32_t minimum, int32_t maximum, int32_t resolution);
/// The same with the noise filter values (a recorded device's axes as they were).
void cfake_set_absinfo_noise(int fd, unsigned code, int32_t fuzz, int32_t flat);
/// The state the fake reports when libevdev re-queries it (after SYN_DROPPED).
void cfake_set_abs_value(int fd, unsigned code, int32_t value);
void cfake_set_slot_value(int fd, unsigned slot, unsigned code, int32_t value);
void cfake_set_key_state(int fd, unsigned code, int down);
/// How many ioctls were answered for `fd` (a test can check libevdev really asked).
int cfake_ioctl_count(int fd);
/// 1 while an EVIOCGRAB holds the fake, 0 when not, -1 for an unknown fd.
int cfake_grabbed(int fd);
/// EVIOCGRAB on the fake fails with `err` (EBUSY: another program holds it); 0 clears.
void cfake_set_grab_error(int fd, int err);

// The fake /dev/uinput (uinput.c): registered fds answer UI_* ioctls in-process.
int cfake_uinput_register(int fd);
void cfake_uinput_unregister(int fd);
/// 1 after UI_DEV_CREATE, 0 before or after UI_DEV_DESTROY, -1 for an unknown fd.
int cfake_uinput_created(int fd);
/// Whether the writer declared `code` of `type` (EV_KEY, EV_REL) with UI_SET_*BIT.
int cfake_uinput_has(int fd, unsigned type, unsigned code);
int cfake_uinput_key_count(int fd);
int cfake_uinput_name(int fd, char *buf, int len);
int cfake_uinput_has_property(int fd, unsigned property);
/// The range and resolution UI_ABS_SETUP gave axis `code`; 0, or -1 for an unknown fd.
int cfake_uinput_absinfo(int fd, unsigned code, int32_t *minimum, int32_t *maximum, int32_t *resolution);
int cfake_uinput_id(int fd, uint16_t *bustype, uint16_t *vendor, uint16_t *product);
/// fake.c's ioctl calls this for 'U' requests; -2 when `fd` is not a fake.
int cfake_uinput_ioctl(int fd, unsigned long request, void *arg);

// Tests only: setfsuid(2) for the calling thread, so that the files the daemon under test
// writes (KWin's focus script) belong to the user a real desktop runs as, as they would
// when gestured runs as that user. Returns the previous fsuid.
int cfake_setfsuid(unsigned uid);

#endif
