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
GD_POINTER(int, sd_bus_message_new_method_call, , )
GD_POINTER(int, sd_bus_message_open_container, , )
GD_POINTER(int, sd_bus_message_append, , )
GD_POINTER(int, sd_bus_message_close_container, , )
GD_POINTER(int, sd_bus_call_async, , )
GD_POINTER(sd_bus_message *, sd_bus_message_unref, , )

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
int gd_bus_call_follow_begin(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface,
                             sd_bus_message_handler_t cb, void *ud, const char *kind, const char *source, uint32_t time, int channel) {
    return p_sd_bus_call_method_async(bus, slot, dest, path, iface, "FollowBeginChannel", cb, ud, "ssuh", kind, source, time, channel);
}
int gd_bus_call_ss(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface, const char *member,
                   sd_bus_message_handler_t cb, void *ud, const char *a, const char *b) {
    return p_sd_bus_call_method_async(bus, slot, dest, path, iface, member, cb, ud, "ss", a, b);
}
int gd_bus_call_set_shortcuts(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface,
                              sd_bus_message_handler_t cb, void *ud, const char *const *names, const char *const *accelerators,
                              size_t count) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus, &m, dest, path, iface, "SetShortcuts");
    if (r >= 0) r = p_sd_bus_message_open_container(m, 'a', "(ss)");
    for (size_t i = 0; r >= 0 && i < count; i++) r = p_sd_bus_message_append(m, "(ss)", names[i], accelerators[i]);
    if (r >= 0) r = p_sd_bus_message_close_container(m);
    if (r >= 0) r = p_sd_bus_call_async(bus, slot, m, cb, ud, 0);
    p_sd_bus_message_unref(m);
    return r;
}
int gd_bus_reply(sd_bus_message *m) { return p_sd_bus_reply_method_return(m, NULL); }
int gd_bus_reply_error(sd_bus_message *m, const char *name, const char *message) {
    const sd_bus_error e = SD_BUS_ERROR_MAKE_CONST(name, message);
    return p_sd_bus_reply_method_error(m, &e);
}

#define GD_SYMBOL(type, name, parameters, arguments) { #name, (void **)&p_##name },
static const struct clinux_symbol sdbus_symbols[] = {
    GD_SDBUS_FUNCTIONS(GD_SYMBOL)
    GD_SYMBOL(int, sd_bus_call_method_async, , )
    GD_SYMBOL(int, sd_bus_reply_method_return, , )
    GD_SYMBOL(int, sd_bus_message_new_method_call, , )
    GD_SYMBOL(int, sd_bus_message_open_container, , )
    GD_SYMBOL(int, sd_bus_message_append, , )
    GD_SYMBOL(int, sd_bus_message_close_container, , )
    GD_SYMBOL(int, sd_bus_call_async, , )
    GD_SYMBOL(sd_bus_message *, sd_bus_message_unref, , )
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

// libwayland-client: the pointers, their loading, and the requests that marshal.
// wayland-util.h's struct wl_message and struct wl_interface, as the wire ABI fixes them
// (libwayland-dev is not needed to build): a message's signature has one character per
// argument (after an optional "since" version and a `?` for nullable), and `types` one
// entry per argument, the interface of an object or new_id, else NULL.
struct wl_interface;
struct gd_wl_message {
    const char *name;
    const char *signature;
    const struct wl_interface **types;
};
struct wl_interface {
    const char *name;
    int version;
    int method_count;
    const struct gd_wl_message *methods;
    int event_count;
    const struct gd_wl_message *events;
};

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
static const struct wl_interface *p_wl_registry_interface, *p_wl_output_interface, *p_wl_callback_interface, *p_wl_seat_interface,
    *p_wl_surface_interface;

static const struct clinux_symbol wayland_symbols[] = {
    { "wl_display_connect", (void **)&p_wl_display_connect }, { "wl_display_disconnect", (void **)&p_wl_display_disconnect },
    { "wl_display_get_fd", (void **)&p_wl_display_get_fd }, { "wl_display_flush", (void **)&p_wl_display_flush },
    { "wl_display_prepare_read", (void **)&p_wl_display_prepare_read }, { "wl_display_read_events", (void **)&p_wl_display_read_events },
    { "wl_display_cancel_read", (void **)&p_wl_display_cancel_read }, { "wl_display_dispatch_pending", (void **)&p_wl_display_dispatch_pending },
    { "wl_proxy_add_listener", (void **)&p_wl_proxy_add_listener }, { "wl_proxy_destroy", (void **)&p_wl_proxy_destroy },
    { "wl_proxy_get_version", (void **)&p_wl_proxy_get_version }, { "wl_proxy_marshal_flags", (void **)&p_wl_proxy_marshal_flags },
    { "wl_registry_interface", (void **)&p_wl_registry_interface }, { "wl_output_interface", (void **)&p_wl_output_interface },
    { "wl_callback_interface", (void **)&p_wl_callback_interface }, { "wl_seat_interface", (void **)&p_wl_seat_interface },
    { "wl_surface_interface", (void **)&p_wl_surface_interface },
};

// wlr-foreign-toplevel-management-unstable-v1, version 3, written from the protocol's XML
// (wlr-protocols): the requests and events in the XML's order, which is their opcodes'.
static const struct wl_interface gd_wlr_toplevel_handle_interface;
static const struct wl_interface *gd_no_types[1];  // the messages below with no object take one argument at most
static const struct wl_interface *gd_toplevel_types[] = { &gd_wlr_toplevel_handle_interface };
static const struct wl_interface *gd_parent_types[] = { &gd_wlr_toplevel_handle_interface };
// Filled by gd_load_wayland with libwayland-client's own wl_seat, wl_surface and wl_output.
static const struct wl_interface *gd_seat_types[1];
static const struct wl_interface *gd_rectangle_types[5];
static const struct wl_interface *gd_output_types[1];

static const struct gd_wl_message gd_wlr_manager_requests[] = {
    { "stop", "", gd_no_types },
};
static const struct gd_wl_message gd_wlr_manager_events[] = {
    { "toplevel", "n", gd_toplevel_types },
    { "finished", "", gd_no_types },
};
static const struct wl_interface gd_wlr_toplevel_manager_interface = {
    "zwlr_foreign_toplevel_manager_v1", 3, 1, gd_wlr_manager_requests, 2, gd_wlr_manager_events,
};
static const struct gd_wl_message gd_wlr_handle_requests[] = {
    { "set_maximized", "", gd_no_types },
    { "unset_maximized", "", gd_no_types },
    { "set_minimized", "", gd_no_types },
    { "unset_minimized", "", gd_no_types },
    { "activate", "o", gd_seat_types },
    { "close", "", gd_no_types },
    { "set_rectangle", "oiiii", gd_rectangle_types },
    { "destroy", "", gd_no_types },
    { "set_fullscreen", "2?o", gd_output_types },
    { "unset_fullscreen", "2", gd_no_types },
};
static const struct gd_wl_message gd_wlr_handle_events[] = {
    { "title", "s", gd_no_types },
    { "app_id", "s", gd_no_types },
    { "output_enter", "o", gd_output_types },
    { "output_leave", "o", gd_output_types },
    { "state", "a", gd_no_types },
    { "done", "", gd_no_types },
    { "closed", "", gd_no_types },
    { "parent", "3?o", gd_parent_types },
};
static const struct wl_interface gd_wlr_toplevel_handle_interface = {
    "zwlr_foreign_toplevel_handle_v1", 3, 10, gd_wlr_handle_requests, 8, gd_wlr_handle_events,
};

// ext-workspace-v1 (wayland-protocols, staging), version 1, written from the protocol's XML.
static const struct wl_interface gd_ext_workspace_group_interface, gd_ext_workspace_interface;
static const struct wl_interface *gd_group_types[] = { &gd_ext_workspace_group_interface };
static const struct wl_interface *gd_workspace_types[] = { &gd_ext_workspace_interface };

static const struct gd_wl_message gd_ext_manager_requests[] = {
    { "commit", "", gd_no_types },
    { "stop", "", gd_no_types },
};
static const struct gd_wl_message gd_ext_manager_events[] = {
    { "workspace_group", "n", gd_group_types },
    { "workspace", "n", gd_workspace_types },
    { "done", "", gd_no_types },
    { "finished", "", gd_no_types },
};
static const struct wl_interface gd_ext_workspace_manager_interface = {
    "ext_workspace_manager_v1", 1, 2, gd_ext_manager_requests, 4, gd_ext_manager_events,
};
static const struct gd_wl_message gd_ext_group_requests[] = {
    { "create_workspace", "s", gd_no_types },
    { "destroy", "", gd_no_types },
};
static const struct gd_wl_message gd_ext_group_events[] = {
    { "capabilities", "u", gd_no_types },
    { "output_enter", "o", gd_output_types },
    { "output_leave", "o", gd_output_types },
    { "workspace_enter", "o", gd_workspace_types },
    { "workspace_leave", "o", gd_workspace_types },
    { "removed", "", gd_no_types },
};
static const struct wl_interface gd_ext_workspace_group_interface = {
    "ext_workspace_group_handle_v1", 1, 2, gd_ext_group_requests, 6, gd_ext_group_events,
};
static const struct gd_wl_message gd_ext_workspace_requests[] = {
    { "destroy", "", gd_no_types },
    { "activate", "", gd_no_types },
    { "deactivate", "", gd_no_types },
    { "assign", "o", gd_group_types },
    { "remove", "", gd_no_types },
};
static const struct gd_wl_message gd_ext_workspace_events[] = {
    { "id", "s", gd_no_types },
    { "name", "s", gd_no_types },
    { "coordinates", "a", gd_no_types },
    { "state", "u", gd_no_types },
    { "capabilities", "u", gd_no_types },
    { "removed", "", gd_no_types },
};
static const struct wl_interface gd_ext_workspace_interface = {
    "ext_workspace_handle_v1", 1, 5, gd_ext_workspace_requests, 6, gd_ext_workspace_events,
};

const char *gd_load_wayland(void) {
    static void *loaded;
    const char *why = clinux_load_library("libwayland-client.so.0", wayland_symbols, sizeof wayland_symbols / sizeof *wayland_symbols, &loaded);
    if (why) return why;
    gd_seat_types[0] = p_wl_seat_interface;
    gd_rectangle_types[0] = p_wl_surface_interface;
    gd_output_types[0] = p_wl_output_interface;
    return NULL;
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

// Opcodes from wayland.xml: wl_display.sync is request 0, get_registry request 1; wl_registry.bind request 0.
struct wl_proxy *gd_wl_get_registry(struct wl_display *d) {
    struct wl_proxy *display = (struct wl_proxy *)d;
    return p_wl_proxy_marshal_flags(display, 1, p_wl_registry_interface, p_wl_proxy_get_version(display), 0, NULL);
}

struct wl_proxy *gd_wl_display_sync(struct wl_display *d) {
    struct wl_proxy *display = (struct wl_proxy *)d;
    return p_wl_proxy_marshal_flags(display, 0, p_wl_callback_interface, p_wl_proxy_get_version(display), 0, NULL);
}

static struct wl_proxy *gd_wl_bind(struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface, uint32_t version) {
    return p_wl_proxy_marshal_flags(registry, 0, interface, version, 0, name, interface->name, version, NULL);
}

struct wl_proxy *gd_wl_bind_output(struct wl_proxy *registry, uint32_t name, uint32_t version) {
    return gd_wl_bind(registry, name, p_wl_output_interface, version);
}

struct wl_proxy *gd_wl_bind_wlr_toplevel_manager(struct wl_proxy *registry, uint32_t name, uint32_t version) {
    return gd_wl_bind(registry, name, &gd_wlr_toplevel_manager_interface, version);
}

const char *gd_wlr_toplevel_manager_name(void) { return gd_wlr_toplevel_manager_interface.name; }

// zwlr_foreign_toplevel_handle_v1.destroy is request 7 (a destructor: the proxy goes with it).

struct wl_proxy *gd_wl_bind_ext_workspace_manager(struct wl_proxy *registry, uint32_t name, uint32_t version) {
    return gd_wl_bind(registry, name, &gd_ext_workspace_manager_interface, version);
}

const char *gd_ext_workspace_manager_name(void) { return gd_ext_workspace_manager_interface.name; }

static void gd_wl_request(struct wl_proxy *p, uint32_t opcode, uint32_t flags) {
    p_wl_proxy_marshal_flags(p, opcode, NULL, p_wl_proxy_get_version(p), flags);
}

// Opcodes from ext-workspace-v1.xml: the manager's commit is request 0; a workspace's
// destroy 0 and activate 1; a group's destroy 1.
void gd_ext_workspace_manager_commit(struct wl_proxy *manager) { gd_wl_request(manager, 0, 0); }
void gd_ext_workspace_activate(struct wl_proxy *workspace) { gd_wl_request(workspace, 1, 0); }
void gd_ext_workspace_destroy(struct wl_proxy *workspace) { gd_wl_request(workspace, 0, 1 << 0 /* WL_MARSHAL_FLAG_DESTROY */); }
void gd_ext_workspace_group_destroy(struct wl_proxy *group) { gd_wl_request(group, 1, 1 << 0 /* WL_MARSHAL_FLAG_DESTROY */); }

// zwlr_foreign_toplevel_handle_v1.destroy is request 7.
void gd_wlr_toplevel_handle_destroy(struct wl_proxy *handle) { gd_wl_request(handle, 7, 1 << 0 /* WL_MARSHAL_FLAG_DESTROY */); }
