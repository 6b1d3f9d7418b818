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

/// Opens `library` and fills every pointer, or none (a library missing one is not used).
#define GD_RESOLVE(type, name, parameters, arguments) \
    if (!(p_##name = (__typeof__(p_##name))dlsym(handle, #name))) { missing = #name; goto fail; }

int gd_load_sdbus(char *why, size_t size) {
    static void *loaded;
    if (loaded) return 0;
    const char *missing = NULL;
    void *handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { snprintf(why, size, "%s", dlerror()); return -1; }
    GD_SDBUS_FUNCTIONS(GD_RESOLVE)
    GD_RESOLVE(int, sd_bus_call_method_async, , )
    GD_RESOLVE(int, sd_bus_reply_method_return, , )
    loaded = handle;
    return 0;
fail:
    snprintf(why, size, "libsystemd.so.0 has no %s (systemd too old?)", missing);
    dlclose(handle);
    return -1;
}

int gd_load_xcb(char *why, size_t size) {
    static void *loaded;
    if (loaded) return 0;
    const char *missing = NULL;
    void *handle = dlopen("libxcb.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { snprintf(why, size, "%s", dlerror()); return -1; }
    GD_XCB_FUNCTIONS(GD_RESOLVE)
    GD_RESOLVE(void, xcb_disconnect, , )
    GD_RESOLVE(void, xcb_screen_next, , )
    loaded = handle;
    return 0;
fail:
    snprintf(why, size, "libxcb.so.1 has no %s", missing);
    dlclose(handle);
    return -1;
}
