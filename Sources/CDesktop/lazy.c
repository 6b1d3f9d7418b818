#include "CDesktop.h"
#include "CLinux.h"

#define GD_POINTER(type, name, parameters, arguments) static __typeof__(name) *p_##name;
GD_SDBUS_FUNCTIONS(GD_POINTER)
GD_XCB_FUNCTIONS(GD_POINTER)
GD_POINTER(void, xcb_disconnect, , )
GD_POINTER(void, xcb_screen_next, , )
GD_POINTER(const xcb_query_extension_reply_t *, xcb_get_extension_data, , )
GD_XCB_RANDR_FUNCTIONS(GD_POINTER)
static xcb_extension_t *p_xcb_randr_id;
GD_POINTER(int, sd_bus_call_method_async, , )
GD_POINTER(int, sd_bus_reply_method_return, , )

#define GD_FORWARD(type, name, parameters, arguments) type gd_##name parameters { return p_##name arguments; }
GD_SDBUS_FUNCTIONS(GD_FORWARD)
GD_XCB_FUNCTIONS(GD_FORWARD)
GD_XCB_RANDR_FUNCTIONS(GD_FORWARD)
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
    GD_SYMBOL(void, xcb_get_extension_data, , )
};
static const struct clinux_symbol xcb_randr_symbols[] = {
    GD_XCB_RANDR_FUNCTIONS(GD_SYMBOL)
    { "xcb_randr_id", (void **)&p_xcb_randr_id },
};

const char *gd_load_sdbus(void) {
    static void *loaded;
    return clinux_load_library("libsystemd.so.0", sdbus_symbols, sizeof sdbus_symbols / sizeof *sdbus_symbols, &loaded);
}

const char *gd_load_xcb(void) {
    static void *loaded;
    return clinux_load_library("libxcb.so.1", xcb_symbols, sizeof xcb_symbols / sizeof *xcb_symbols, &loaded);
}

const char *gd_load_xcb_randr(void) {
    static void *loaded;
    return clinux_load_library("libxcb-randr.so.0", xcb_randr_symbols, sizeof xcb_randr_symbols / sizeof *xcb_randr_symbols, &loaded);
}

int gd_xcb_randr_first_event(xcb_connection_t *c) {
    const xcb_query_extension_reply_t *randr = p_xcb_get_extension_data(c, p_xcb_randr_id);
    return randr && randr->present ? randr->first_event : -1;
}

// libwayland-client: the pointers, their loading, and the two requests that marshal.
struct wl_interface;
static struct wl_display *(*p_wl_display_connect)(const char *);
static void (*p_wl_display_disconnect)(struct wl_display *);
static int (*p_wl_display_get_fd)(struct wl_display *);
static int (*p_wl_display_flush)(struct wl_display *);
static int (*p_wl_display_prepare_read)(struct wl_display *);
static int (*p_wl_display_read_events)(struct wl_display *);
static void (*p_wl_display_cancel_read)(struct wl_display *);
static int (*p_wl_display_dispatch_pending)(struct wl_display *);
static int (*p_wl_proxy_add_listener)(struct wl_proxy *, void (**)(void), void *);
static void (*p_wl_proxy_destroy)(struct wl_proxy *);
static uint32_t (*p_wl_proxy_get_version)(struct wl_proxy *);
static struct wl_proxy *(*p_wl_proxy_marshal_flags)(struct wl_proxy *, uint32_t, const struct wl_interface *, uint32_t, uint32_t, ...);
static const struct wl_interface *p_wl_registry_interface, *p_wl_output_interface;

static const struct clinux_symbol wayland_symbols[] = {
    { "wl_display_connect", (void **)&p_wl_display_connect }, { "wl_display_disconnect", (void **)&p_wl_display_disconnect },
    { "wl_display_get_fd", (void **)&p_wl_display_get_fd }, { "wl_display_flush", (void **)&p_wl_display_flush },
    { "wl_display_prepare_read", (void **)&p_wl_display_prepare_read }, { "wl_display_read_events", (void **)&p_wl_display_read_events },
    { "wl_display_cancel_read", (void **)&p_wl_display_cancel_read }, { "wl_display_dispatch_pending", (void **)&p_wl_display_dispatch_pending },
    { "wl_proxy_add_listener", (void **)&p_wl_proxy_add_listener }, { "wl_proxy_destroy", (void **)&p_wl_proxy_destroy },
    { "wl_proxy_get_version", (void **)&p_wl_proxy_get_version }, { "wl_proxy_marshal_flags", (void **)&p_wl_proxy_marshal_flags },
    { "wl_registry_interface", (void **)&p_wl_registry_interface }, { "wl_output_interface", (void **)&p_wl_output_interface },
};

const char *gd_load_wayland(void) {
    static void *loaded;
    return clinux_load_library("libwayland-client.so.0", wayland_symbols, sizeof wayland_symbols / sizeof *wayland_symbols, &loaded);
}

struct wl_display *gd_wl_display_connect(const char *name) { return p_wl_display_connect(name); }
void gd_wl_display_disconnect(struct wl_display *d) { p_wl_display_disconnect(d); }
int gd_wl_display_get_fd(struct wl_display *d) { return p_wl_display_get_fd(d); }
int gd_wl_display_flush(struct wl_display *d) { return p_wl_display_flush(d); }
int gd_wl_display_prepare_read(struct wl_display *d) { return p_wl_display_prepare_read(d); }
int gd_wl_display_read_events(struct wl_display *d) { return p_wl_display_read_events(d); }
void gd_wl_display_cancel_read(struct wl_display *d) { p_wl_display_cancel_read(d); }
int gd_wl_display_dispatch_pending(struct wl_display *d) { return p_wl_display_dispatch_pending(d); }
int gd_wl_proxy_add_listener(struct wl_proxy *p, void (**listener)(void), void *data) { return p_wl_proxy_add_listener(p, listener, data); }
void gd_wl_proxy_destroy(struct wl_proxy *p) { p_wl_proxy_destroy(p); }

// Opcodes from wayland.xml: wl_display.get_registry is request 1, wl_registry.bind request 0.
struct wl_proxy *gd_wl_get_registry(struct wl_display *d) {
    struct wl_proxy *display = (struct wl_proxy *)d;
    return p_wl_proxy_marshal_flags(display, 1, p_wl_registry_interface, p_wl_proxy_get_version(display), 0, NULL);
}

struct wl_proxy *gd_wl_bind_output(struct wl_proxy *registry, uint32_t name, uint32_t version) {
    // An interface's first member is its name (struct wl_interface in wayland-util.h).
    const char *interface = *(const char *const *)p_wl_output_interface;
    return p_wl_proxy_marshal_flags(registry, 0, p_wl_output_interface, version, 0, name, interface, version, NULL);
}
