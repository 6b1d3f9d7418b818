// sd-bus from libsystemd, for the KWin focus source. sd-bus's message builders are
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
