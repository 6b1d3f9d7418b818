#include "CDesktop.h"
#include <dlfcn.h>
#include <stdio.h>

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

struct symbol { const char *name; void **pointer; };
#define GD_SYMBOL(type, name, parameters, arguments) { #name, (void **)&p_##name },
static const struct symbol sdbus_symbols[] = {
    GD_SDBUS_FUNCTIONS(GD_SYMBOL)
    GD_SYMBOL(int, sd_bus_call_method_async, , )
    GD_SYMBOL(int, sd_bus_reply_method_return, , )
};
static const struct symbol xcb_symbols[] = {
    GD_XCB_FUNCTIONS(GD_SYMBOL)
    GD_SYMBOL(void, xcb_disconnect, , )
    GD_SYMBOL(void, xcb_screen_next, , )
};

/// Opens `soname` and fills every pointer, or none (a library missing one is not used).
static const char *load(const char *soname, const struct symbol *symbols, size_t count, void **loaded) {
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

const char *gd_load_sdbus(void) {
    static void *loaded;
    return load("libsystemd.so.0", sdbus_symbols, sizeof sdbus_symbols / sizeof *sdbus_symbols, &loaded);
}

const char *gd_load_xcb(void) {
    static void *loaded;
    return load("libxcb.so.1", xcb_symbols, sizeof xcb_symbols / sizeof *xcb_symbols, &loaded);
}
