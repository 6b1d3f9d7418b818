#ifndef CBENCHFLOOR_H
#define CBENCHFLOOR_H
// The benchmark's C side: the C floor the decoder is compared with, and a malloc
// counter. Test support for gestured-bench only; never linked into gestured.
#include <stddef.h>
#include <stdint.h>

/// The layout of the Swift `InputEvent` (Timestamp in µs, type, code, value):
/// gestured-bench checks it at start and hands its event arrays over unchanged.
struct bench_event {
    int64_t time_us;
    uint16_t type;
    uint16_t code;
    int32_t value;
};

/// How the device reports touches, as `TouchCapabilities.touchProtocol` says.
enum bench_protocol { BENCH_SINGLE_TOUCH = 0, BENCH_SLOTS = 1, BENCH_ANONYMOUS = 2 };

/// The axis ranges the decoder needs (the same numbers TouchDecoder derives).
struct bench_axes {
    double x_min, y_min, x_per_mm, y_per_mm, x_span, y_span, major_per_mm;
    int slot_count;
    enum bench_protocol protocol;
    /// Protocol A only: mtdev's absinfo, indexed by ABS code (0x30…0x3f), as the
    /// Swift MtdevAdapter sets them.
    int32_t mt_min[16], mt_max[16], mt_fuzz[16], mt_res[16];
    uint8_t mt_present[16];
    /// The codes the device declares, as TouchDecoder keeps them (issue 10): bit n of
    /// `declared_abs` for EV_ABS code n (≤ 0x3f), bit n % 64 of word n / 64 for EV_KEY.
    uint64_t declared_abs;
    uint64_t declared_keys[12];
};

typedef struct bench_floor bench_floor;

/// A C decoder: the same events into slot state, and at each SYN_REPORT a frame of
/// contacts (id, slot, mm and 0…1 positions, major axis) like TouchDecoder's.
bench_floor *bench_floor_new(const struct bench_axes *axes);
void bench_floor_free(bench_floor *f);
/// Feeds `n` events with `time_offset_us` added to each; returns the frames completed.
/// `*checksum` accumulates finger counts and positions so nothing is optimised away.
/// Each event is first checked against the device's declared codes, as TouchDecoder
/// does since issue 10 (undeclared ones are dropped and counted).
uint64_t bench_floor_feed(bench_floor *f, const struct bench_event *events, size_t n,
                          int64_t time_offset_us, double *checksum);
/// The same without that check: the floor as it was before issue 10.
uint64_t bench_floor_feed_unchecked(bench_floor *f, const struct bench_event *events, size_t n,
                                    int64_t time_offset_us, double *checksum);

/// Calls to malloc, calloc, realloc and the aligned allocators since the process started.
uint64_t bench_malloc_count(void);

/// CLOCK_MONOTONIC in nanoseconds.
int64_t bench_monotonic_ns(void);

#endif
