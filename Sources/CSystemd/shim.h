// sd-bus from libsystemd, for the tests' fakes of KWin and GNOME Shell. sd-bus's message builders are
// variadic and so do not import into Swift: one fixed-signature wrapper for each
// call gestured makes, named after what it sends.
#include <systemd/sd-bus.h>
#include <stdint.h>

static inline int gestured_bus_call(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path,
                                    const char *iface, const char *member, sd_bus_message_handler_t cb, void *ud) {
    return sd_bus_call_method_async(bus, slot, dest, path, iface, member, cb, ud, NULL);
}

static inline int gestured_bus_call_s(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path,
                                      const char *iface, const char *member, sd_bus_message_handler_t cb, void *ud,
                                      const char *a) {
    return sd_bus_call_method_async(bus, slot, dest, path, iface, member, cb, ud, "s", a);
}

static inline int gestured_bus_call_ss(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path,
                                       const char *iface, const char *member, sd_bus_message_handler_t cb, void *ud,
                                       const char *a, const char *b) {
    return sd_bus_call_method_async(bus, slot, dest, path, iface, member, cb, ud, "ss", a, b);
}

static inline int gestured_bus_reply(sd_bus_message *m) { return sd_bus_reply_method_return(m, NULL); }
static inline int gestured_bus_reply_i(sd_bus_message *m, int32_t v) { return sd_bus_reply_method_return(m, "i", v); }
static inline int gestured_bus_reply_b(sd_bus_message *m, int v) { return sd_bus_reply_method_return(m, "b", v); }
/// A method call with one string argument, waiting for its reply (tests' own clients).
static inline int gestured_bus_call_s_sync(sd_bus *bus, const char *dest, const char *path, const char *iface, const char *member,
                                           const char *a, sd_bus_error *e, sd_bus_message **reply) {
    return sd_bus_call_method(bus, dest, path, iface, member, e, reply, "s", a);
}
/// The GNOME extension's `FollowBegin` answer: (u session, s axis, d start).
static inline int gestured_bus_reply_usd(sd_bus_message *m, uint32_t u, const char *s, double d) {
    return sd_bus_reply_method_return(m, "usd", u, s, d);
}
static inline int gestured_bus_reply_error(sd_bus_message *m, const char *name, const char *message) {
    sd_bus_error e = SD_BUS_ERROR_MAKE_CONST(name, message);
    return sd_bus_reply_method_error(m, &e);
}

/// The GNOME extension's focus fields (docs/GNOME.md) for `app` and `title`, as a Wayland window.
static inline int gestured_bus_reply_focus(sd_bus_message *m, const char *app, const char *title) {
    return sd_bus_reply_method_return(m, "sssssss", app, title, "wayland", app, app, "", "");
}

/// `FocusChanged(app, title, …)` from /io/github/gestured/Shell: broadcast, or to `dest` alone.
static inline int gestured_bus_emit_focus(sd_bus *bus, const char *dest, const char *app, const char *title) {
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_signal(bus, &m, "/io/github/gestured/Shell", "io.github.gestured.Shell", "FocusChanged");
    if (r >= 0 && dest) r = sd_bus_message_set_destination(m, dest);
    if (r >= 0) r = sd_bus_message_append(m, "sssssss", app, title, "wayland", app, app, "", "");
    if (r >= 0) r = sd_bus_send(bus, m, NULL);
    sd_bus_message_unref(m);
    return r;
}

/// gestured's GNOME extension's Follow methods (docs/GNOME.md), sent as gestured sends them: on
/// gnome-shell's connection (org.gnome.Shell), FollowBegin and FollowEnd waiting for the reply.
static inline int gestured_bus_follow_begin(sd_bus *bus, const char *kind, const char *source, uint32_t time,
                                            sd_bus_error *error, sd_bus_message **reply) {
    return sd_bus_call_method(bus, "org.gnome.Shell", "/io/github/gestured/Shell", "io.github.gestured.Shell", "FollowBegin",
                              error, reply, "ssu", kind, source, time);
}

/// FollowUpdate: with `reply` NULL sent without waiting (NO_REPLY_EXPECTED, as gestured sends
/// it each frame); otherwise a call whose reply, or error, is waited for.
static inline int gestured_bus_follow_update(sd_bus *bus, uint32_t session, double progress, uint32_t time,
                                             sd_bus_error *error, sd_bus_message **reply) {
    if (reply)
        return sd_bus_call_method(bus, "org.gnome.Shell", "/io/github/gestured/Shell", "io.github.gestured.Shell", "FollowUpdate",
                                  error, reply, "udu", session, progress, time);
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_method_call(bus, &m, "org.gnome.Shell", "/io/github/gestured/Shell", "io.github.gestured.Shell",
                                           "FollowUpdate");
    if (r >= 0) r = sd_bus_message_append(m, "udu", session, progress, time);
    if (r >= 0) r = sd_bus_message_set_expect_reply(m, 0);
    if (r >= 0) r = sd_bus_send(bus, m, NULL);
    sd_bus_message_unref(m);
    return r;
}

static inline int gestured_bus_follow_end(sd_bus *bus, uint32_t session, uint32_t time, int cancel,
                                          sd_bus_error *error, sd_bus_message **reply) {
    return sd_bus_call_method(bus, "org.gnome.Shell", "/io/github/gestured/Shell", "io.github.gestured.Shell", "FollowEnd",
                              error, reply, "uub", session, time, cancel);
}

/// org.gnome.Shell.Eval(code) (unsafe mode), waiting for its (success, JSON) reply.
static inline int gestured_bus_eval(sd_bus *bus, const char *code, sd_bus_error *error, sd_bus_message **reply) {
    return sd_bus_call_method(bus, "org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval", error, reply, "s", code);
}

/// A signal with three strings (`NameOwnerChanged(name, old, new)`'s form), sent to `dest` alone:
/// what a client that pretends to be someone else sends (the tests' forgeries).
static inline int gestured_bus_emit_sss(sd_bus *bus, const char *dest, const char *path, const char *iface, const char *member,
                                        const char *a, const char *b, const char *c) {
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_signal(bus, &m, path, iface, member);
    if (r >= 0 && dest) r = sd_bus_message_set_destination(m, dest);
    if (r >= 0) r = sd_bus_message_append(m, "sss", a, b, c);
    if (r >= 0) r = sd_bus_send(bus, m, NULL);
    sd_bus_message_unref(m);
    return r;
}

/// A signal without arguments (Mutter's `MonitorsChanged`), broadcast or to `dest` alone.
static inline int gestured_bus_emit_empty(sd_bus *bus, const char *dest, const char *path, const char *iface, const char *member) {
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_signal(bus, &m, path, iface, member);
    if (r >= 0 && dest) r = sd_bus_message_set_destination(m, dest);
    if (r >= 0) r = sd_bus_send(bus, m, NULL);
    sd_bus_message_unref(m);
    return r;
}

/// A method call with two strings, waiting for its reply or error (a test's own client).
static inline int gestured_bus_call_ss_sync(sd_bus *bus, const char *dest, const char *path, const char *iface, const char *member,
                                            const char *a, const char *b, sd_bus_error *e, sd_bus_message **reply) {
    return sd_bus_call_method(bus, dest, path, iface, member, e, reply, "ss", a, b);
}

/// A method call without arguments, waiting for its reply or error (a test's own client).
static inline int gestured_bus_call_sync(sd_bus *bus, const char *dest, const char *path, const char *iface, const char *member,
                                         sd_bus_error *e, sd_bus_message **reply) {
    return sd_bus_call_method(bus, dest, path, iface, member, e, reply, NULL);
}
