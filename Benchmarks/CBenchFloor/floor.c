// The C floor: TouchDecoder's work written as a plain C loop, so gestured-bench can
// say how far the Swift decoder is from what C does with the same events. Same
// state (slots, tool bits, contact ids) and the same frame per SYN_REPORT (contacts
// in mm and 0…1, finger count); protocol-A devices go through libmtdev as in Swift.
#include "CBenchFloor.h"

#include <mtdev-plumbing.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EV_SYN_ = 0, EV_KEY_ = 1, EV_ABS_ = 3 };
enum { SYN_REPORT_ = 0, SYN_DROPPED_ = 3 };
enum { ABS_X_ = 0x00, ABS_Y_ = 0x01, ABS_MT_SLOT_ = 0x2f, ABS_MT_TOUCH_MAJOR_ = 0x30,
       ABS_MT_POSITION_X_ = 0x35, ABS_MT_POSITION_Y_ = 0x36, ABS_MT_TOOL_TYPE_ = 0x37,
       ABS_MT_TRACKING_ID_ = 0x39 };
enum { BTN_LEFT_ = 0x110, BTN_TOOL_FINGER_ = 0x145, BTN_TOOL_QUINTTAP_ = 0x148, BTN_TOUCH_ = 0x14a,
       BTN_TOOL_DOUBLETAP_ = 0x14d, BTN_TOOL_TRIPLETAP_ = 0x14e, BTN_TOOL_QUADTAP_ = 0x14f };
enum { MT_TOOL_FINGER_ = 0, MT_TOOL_PALM_ = 2 };
enum { MAX_CONTACTS = 10 };

struct slot {
    int32_t tracking_id, contact_id, x, y, major, tool_type;
    int has_position;
};

struct contact {
    int32_t id, slot;
    double x_mm, y_mm, x_norm, y_norm, major_mm;
};

struct frame {
    int64_t time_us;
    struct contact contacts[MAX_CONTACTS];
    int count, finger_count, resynced, button_down;
};

struct bench_floor {
    struct bench_axes axes;
    struct slot *slots;
    int current_slot;
    uint8_t tool_bits;
    int touch_down, button_down, dropping, resync_pending;
    int32_t next_contact_id;
    uint64_t undeclared;
    struct mtdev *mtdev;
    struct frame frame;
};

static void slot_reset(struct slot *s) {
    memset(s, 0, sizeof *s);
    s->tracking_id = -1;
    s->contact_id = -1;
    s->tool_type = MT_TOOL_FINGER_;
}

bench_floor *bench_floor_new(const struct bench_axes *axes) {
    bench_floor *f = calloc(1, sizeof *f);
    f->axes = *axes;
    f->slots = calloc((size_t)axes->slot_count, sizeof *f->slots);
    for (int i = 0; i < axes->slot_count; i++) slot_reset(&f->slots[i]);
    if (axes->protocol == BENCH_ANONYMOUS) {
        f->mtdev = mtdev_new();
        mtdev_init(f->mtdev);
        for (int c = 0; c < 16; c++) {
            if (!axes->mt_present[c]) continue;
            int code = ABS_MT_TOUCH_MAJOR_ + c;
            mtdev_set_mt_event(f->mtdev, code, 1);
            mtdev_set_abs_minimum(f->mtdev, code, axes->mt_min[c]);
            mtdev_set_abs_maximum(f->mtdev, code, axes->mt_max[c]);
            mtdev_set_abs_fuzz(f->mtdev, code, axes->mt_fuzz[c]);
            mtdev_set_abs_resolution(f->mtdev, code, axes->mt_res[c]);
        }
    }
    return f;
}

void bench_floor_free(bench_floor *f) {
    if (f->mtdev) mtdev_delete(f->mtdev);
    free(f->slots);
    free(f);
}

static int32_t take_contact_id(bench_floor *f) {
    int32_t id = f->next_contact_id;
    f->next_contact_id = id == INT32_MAX ? 0 : id + 1;
    return id;
}

static void absolute(bench_floor *f, uint16_t code, int32_t value) {
    if (f->axes.protocol == BENCH_SINGLE_TOUCH) {
        if (code == ABS_X_) { f->slots[0].x = value; f->slots[0].has_position = 1; }
        else if (code == ABS_Y_) { f->slots[0].y = value; f->slots[0].has_position = 1; }
        return;
    }
    if (code == ABS_MT_SLOT_) {
        f->current_slot = value >= 0 && value < f->axes.slot_count ? value : -1;
        return;
    }
    if (f->current_slot < 0) return;
    struct slot *s = &f->slots[f->current_slot];
    switch (code) {
    case ABS_MT_POSITION_X_: s->x = value; s->has_position = 1; break;
    case ABS_MT_POSITION_Y_: s->y = value; s->has_position = 1; break;
    case ABS_MT_TOUCH_MAJOR_: s->major = value; break;
    case ABS_MT_TOOL_TYPE_: s->tool_type = value; break;
    case ABS_MT_TRACKING_ID_:
        if (value < 0) {
            s->tracking_id = -1;
            s->contact_id = -1;
            s->tool_type = MT_TOOL_FINGER_;
        } else if (value != s->tracking_id) {
            s->tracking_id = value;
            s->contact_id = take_contact_id(f);
        }
        break;
    default: break;
    }
}

static int tool_fingers(uint16_t code) {
    switch (code) {
    case BTN_TOOL_FINGER_: return 1;
    case BTN_TOOL_DOUBLETAP_: return 2;
    case BTN_TOOL_TRIPLETAP_: return 3;
    case BTN_TOOL_QUADTAP_: return 4;
    case BTN_TOOL_QUINTTAP_: return 5;
    default: return 0;
    }
}

static void key(bench_floor *f, uint16_t code, int32_t value) {
    int fingers = tool_fingers(code);
    if (fingers > 0) {
        uint8_t bit = (uint8_t)(1u << (fingers - 1));
        if (value) f->tool_bits |= bit; else f->tool_bits &= (uint8_t)~bit;
    } else if (code == BTN_TOUCH_) {
        f->touch_down = value != 0;
    } else if (code == BTN_LEFT_) {
        f->button_down = value != 0;
    }
}

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

static void add_contact(bench_floor *f, const struct slot *s, int slot) {
    if (f->frame.count >= MAX_CONTACTS) return;
    double dx = (double)s->x - f->axes.x_min, dy = (double)s->y - f->axes.y_min;
    struct contact *c = &f->frame.contacts[f->frame.count++];
    c->id = s->contact_id;
    c->slot = slot;
    c->x_mm = dx / f->axes.x_per_mm;
    c->y_mm = dy / f->axes.y_per_mm;
    c->x_norm = clamp01(dx / f->axes.x_span);
    c->y_norm = clamp01(dy / f->axes.y_span);
    c->major_mm = (double)s->major / f->axes.major_per_mm;
}

static void emit(bench_floor *f, int64_t time_us) {
    int active = 0, palms = 0;
    f->frame.count = 0;
    f->frame.time_us = time_us;
    if (f->axes.protocol == BENCH_SINGLE_TOUCH) {
        int down = f->touch_down || f->tool_bits != 0;
        if (down && f->slots[0].contact_id < 0) f->slots[0].contact_id = take_contact_id(f);
        if (!down) f->slots[0].contact_id = -1;
        if (down) {
            active = 1;
            if (f->slots[0].has_position) add_contact(f, &f->slots[0], 0);
        }
    } else {
        for (int i = 0; i < f->axes.slot_count; i++) {
            const struct slot *s = &f->slots[i];
            if (s->tracking_id < 0) continue;
            if (s->tool_type == MT_TOOL_PALM_) { palms++; continue; }
            active++;
            if (s->has_position) add_contact(f, s, i);
        }
    }
    int tool = (f->tool_bits == 0 ? 0 : 8 - __builtin_clz((unsigned)f->tool_bits << 24)) - palms;
    f->frame.finger_count = tool > f->axes.slot_count ? (active > tool ? active : tool) : active;
    f->frame.resynced = f->resync_pending;
    f->resync_pending = 0;
    f->frame.button_down = f->button_down;
}

/// One protocol-B event; returns 1 when it completed a frame.
static int decode(bench_floor *f, int64_t time_us, uint16_t type, uint16_t code, int32_t value) {
    if (f->dropping) {
        if (type != EV_SYN_ || code != SYN_REPORT_) return 0;
        f->dropping = 0;
        emit(f, time_us);
        return 1;
    }
    switch (type) {
    case EV_ABS_: absolute(f, code, value); break;
    case EV_KEY_: key(f, code, value); break;
    case EV_SYN_:
        if (code == SYN_REPORT_) { emit(f, time_us); return 1; }
        if (code == SYN_DROPPED_) { f->dropping = 1; f->resync_pending = 1; }
        break;
    default: break;
    }
    return 0;
}

static int through_mtdev(bench_floor *f, int64_t time_us, uint16_t type, uint16_t code, int32_t value) {
    if (type == EV_SYN_ && code == SYN_DROPPED_) return decode(f, time_us, type, code, value);
    struct input_event ev = {0};
    ev.time.tv_sec = time_us / 1000000;
    ev.time.tv_usec = time_us % 1000000;
    ev.type = type;
    ev.code = code;
    ev.value = value;
    mtdev_put_event(f->mtdev, &ev);
    if (type != EV_SYN_ || code != SYN_REPORT_) return 0;
    int completed = 0;
    while (!mtdev_empty(f->mtdev)) {
        struct input_event out;
        mtdev_get_event(f->mtdev, &out);
        int64_t t = (int64_t)out.time.tv_sec * 1000000 + out.time.tv_usec;
        completed |= decode(f, t, out.type, out.code, out.value);
    }
    return completed;
}

/// TouchDecoder's first step since issue 10: an event whose type or code the device
/// does not declare is dropped, and counted, before anything reads it (libmtdev indexes
/// its tables by code unchecked).
static int declared(bench_floor *f, uint16_t type, uint16_t code) {
    switch (type) {
    case EV_ABS_:
        if (code <= 0x3f && (f->axes.declared_abs >> code) & 1) return 1;
        break;
    case EV_SYN_:
        if (code <= SYN_DROPPED_) return 1;
        break;
    case EV_KEY_:
        if (code <= 0x2ff && (f->axes.declared_keys[code >> 6] >> (code & 63)) & 1) return 1;
        break;
    default:
        return 0;
    }
    f->undeclared++;
    return 0;
}

static double frame_checksum(const struct frame *fr) {
    double sum = fr->finger_count;
    for (int i = 0; i < fr->count; i++) sum += fr->contacts[i].x_mm + fr->contacts[i].y_norm;
    return sum;
}

/// The loop of both entry points; `check` is a constant in each, so the unchecked one
/// compiles to the loop the floor had before issue 10.
static inline __attribute__((always_inline))
uint64_t feed(bench_floor *f, const struct bench_event *events, size_t n, int64_t time_offset_us, double *checksum,
              int check) {
    uint64_t frames = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        const struct bench_event *e = &events[i];
        int64_t t = e->time_us + time_offset_us;
        if (check && !declared(f, e->type, e->code)) continue;
        int done = f->mtdev ? through_mtdev(f, t, e->type, e->code, e->value)
                            : decode(f, t, e->type, e->code, e->value);
        if (done) { frames++; sum += frame_checksum(&f->frame); }
    }
    *checksum += sum;
    return frames;
}

uint64_t bench_floor_feed(bench_floor *f, const struct bench_event *events, size_t n,
                          int64_t time_offset_us, double *checksum) {
    return feed(f, events, n, time_offset_us, checksum, 1);
}

uint64_t bench_floor_feed_unchecked(bench_floor *f, const struct bench_event *events, size_t n,
                                    int64_t time_offset_us, double *checksum) {
    return feed(f, events, n, time_offset_us, checksum, 0);
}

int64_t bench_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
