#include "CDesktop.h"
#include "CLinux.h"

#define GD_POINTER(type, name, parameters, arguments) static __typeof__(name) *p_##name;
GD_SDBUS_FUNCTIONS(GD_POINTER)
GD_XCB_FUNCTIONS(GD_POINTER)
GD_POINTER(void, xcb_disconnect, , )
GD_POINTER(void, xcb_screen_next, , )
GD_POINTER(int, sd_bus_call_method_async, , )
GD_POINTER(int, sd_bus_reply_method_return, , )

#define GD_FORWARD(type, name, parameters, arguments) type gd_##name parameters { return p_##name arguments; }
GD_SDBUS_FUNCTIONS(GD_FORWARD)
GD_XCB_FUNCTIONS(GD_FORWARD)
void gd_xcb_disconnect(xcb_connection_t *c) { p_xcb_disconnect(c); }
void gd_xcb_screen_next(xcb_screen_iterator_t *i) { p_xcb_screen_next(i); }

int gd_bus_call(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface, const char *member,
                sd_bus_message_handler_t cb, void *ud) {
    return p_sd_bus_call_method_async(bus, slot, dest, path, iface, member, cb, ud, NULL);
}
int gd_bus_call_s(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface, const char *member,
                  sd_bus_message_handler_t cb, void *ud, const char *a) {
    return p_sd_bus_call_method_async(bus, slot, dest, path, iface, member, cb, ud, "s", a);
}
int gd_bus_call_ss(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface, const char *member,
                   sd_bus_message_handler_t cb, void *ud, const char *a, const char *b) {
    return p_sd_bus_call_method_async(bus, slot, dest, path, iface, member, cb, ud, "ss", a, b);
}
int gd_bus_reply(sd_bus_message *m) { return p_sd_bus_reply_method_return(m, NULL); }

#define GD_SYMBOL(type, name, parameters, arguments) { #name, (void **)&p_##name },
static const struct clinux_symbol sdbus_symbols[] = {
    GD_SDBUS_FUNCTIONS(GD_SYMBOL)
    GD_SYMBOL(int, sd_bus_call_method_async, , )
    GD_SYMBOL(int, sd_bus_reply_method_return, , )
};
static const struct clinux_symbol xcb_symbols[] = {
    GD_XCB_FUNCTIONS(GD_SYMBOL)
    GD_SYMBOL(void, xcb_disconnect, , )
    GD_SYMBOL(void, xcb_screen_next, , )
};

const char *gd_load_sdbus(void) {
    static void *loaded;
    return clinux_load_library("libsystemd.so.0", sdbus_symbols, sizeof sdbus_symbols / sizeof *sdbus_symbols, &loaded);
}

const char *gd_load_xcb(void) {
    static void *loaded;
    return clinux_load_library("libxcb.so.1", xcb_symbols, sizeof xcb_symbols / sizeof *xcb_symbols, &loaded);
}
