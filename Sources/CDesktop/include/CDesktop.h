// libsystemd (sd-bus, for the KWin and GNOME focus sources and desktop actions) and libxcb (for the
// X11 one and EWMH desktop actions; with libxcb-randr, the X11 screen-rotation source), loaded
// with dlopen when such a source starts, not linked: a daemon on sway or Hyprland
// never maps them, nor what libsystemd pulls in (libgcrypt, libzstd, liblzma,
// liblz4: about 1 MB of resident memory, a tenth of the budget).
//
// Each function gestured calls is `gd_` + its name, with its own signature; it calls
// through a pointer that gd_load_sdbus()/gd_load_xcb() fill. Call those first: a
// source does so when it connects. Only the headers are needed to build
// (libsystemd-dev, libxcb1-dev); the real functions are not linked, so calling one
// by its own name fails at link time.
#ifndef GESTURED_CDESKTOP_H
#define GESTURED_CDESKTOP_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xcb/randr.h>

/// NULL once loaded (again: at once), or why not (dlerror's text; valid until the next call).
const char *gd_load_sdbus(void);
const char *gd_load_xcb(void);

// FUNCTION(return type, name, parameters, arguments): what gestured calls.
#define GD_SDBUS_FUNCTIONS(FUNCTION) \
    FUNCTION(int, sd_bus_new, (sd_bus **ret), (ret)) \
    FUNCTION(int, sd_bus_set_address, (sd_bus *bus, const char *address), (bus, address)) \
    FUNCTION(int, sd_bus_set_bus_client, (sd_bus *bus, int b), (bus, b)) \
    FUNCTION(int, sd_bus_start, (sd_bus *bus), (bus)) \
    FUNCTION(sd_bus *, sd_bus_unref, (sd_bus *bus), (bus)) \
    FUNCTION(sd_bus *, sd_bus_close_unref, (sd_bus *bus), (bus)) \
    FUNCTION(int, sd_bus_get_fd, (sd_bus *bus), (bus)) \
    FUNCTION(int, sd_bus_process, (sd_bus *bus, sd_bus_message **r), (bus, r)) \
    FUNCTION(int, sd_bus_add_object, (sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback, void *userdata), \
             (bus, slot, path, callback, userdata)) \
    FUNCTION(int, sd_bus_request_name_async, (sd_bus *bus, sd_bus_slot **ret_slot, const char *name, uint64_t flags, \
             sd_bus_message_handler_t callback, void *userdata), (bus, ret_slot, name, flags, callback, userdata)) \
    FUNCTION(int, sd_bus_add_match_async, (sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback, \
             sd_bus_message_handler_t install_callback, void *userdata), (bus, slot, match, callback, install_callback, userdata)) \
    FUNCTION(int, sd_bus_get_unique_name, (sd_bus *bus, const char **unique), (bus, unique)) \
    FUNCTION(const char *, sd_bus_message_get_sender, (sd_bus_message *m), (m)) \
    FUNCTION(int, sd_bus_message_is_signal, (sd_bus_message *m, const char *interface, const char *member), (m, interface, member)) \
    FUNCTION(int, sd_bus_message_is_method_call, (sd_bus_message *m, const char *interface, const char *member), (m, interface, member)) \
    FUNCTION(int, sd_bus_message_is_method_error, (sd_bus_message *m, const char *name), (m, name)) \
    FUNCTION(int, sd_bus_message_read_basic, (sd_bus_message *m, char type, void *p), (m, type, p)) \
    FUNCTION(int, sd_bus_message_enter_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents)) \
    FUNCTION(int, sd_bus_message_exit_container, (sd_bus_message *m), (m)) \
    FUNCTION(int, sd_bus_message_skip, (sd_bus_message *m, const char *types), (m, types)) \
    FUNCTION(const sd_bus_error *, sd_bus_message_get_error, (sd_bus_message *m), (m)) \
    FUNCTION(int, sd_bus_reply_method_error, (sd_bus_message *call, const sd_bus_error *e), (call, e))

#define GD_XCB_FUNCTIONS(FUNCTION) \
    FUNCTION(xcb_connection_t *, xcb_connect, (const char *displayname, int *screenp), (displayname, screenp)) \
    FUNCTION(int, xcb_flush, (xcb_connection_t *c), (c)) \
    FUNCTION(int, xcb_connection_has_error, (xcb_connection_t *c), (c)) \
    FUNCTION(int, xcb_get_file_descriptor, (xcb_connection_t *c), (c)) \
    FUNCTION(const struct xcb_setup_t *, xcb_get_setup, (xcb_connection_t *c), (c)) \
    FUNCTION(xcb_screen_iterator_t, xcb_setup_roots_iterator, (const xcb_setup_t *r), (r)) \
    FUNCTION(xcb_generic_event_t *, xcb_poll_for_event, (xcb_connection_t *c), (c)) \
    FUNCTION(int, xcb_poll_for_reply, (xcb_connection_t *c, unsigned int request, void **reply, xcb_generic_error_t **error), \
             (c, request, reply, error)) \
    FUNCTION(xcb_intern_atom_cookie_t, xcb_intern_atom, (xcb_connection_t *c, uint8_t only_if_exists, uint16_t name_len, const char *name), \
             (c, only_if_exists, name_len, name)) \
    FUNCTION(xcb_get_property_cookie_t, xcb_get_property, (xcb_connection_t *c, uint8_t delete_, xcb_window_t window, xcb_atom_t property, \
             xcb_atom_t type, uint32_t long_offset, uint32_t long_length), (c, delete_, window, property, type, long_offset, long_length)) \
    FUNCTION(void *, xcb_get_property_value, (const xcb_get_property_reply_t *r), (r)) \
    FUNCTION(int, xcb_get_property_value_length, (const xcb_get_property_reply_t *r), (r)) \
    FUNCTION(xcb_void_cookie_t, xcb_send_event, (xcb_connection_t *c, uint8_t propagate, xcb_window_t destination, uint32_t event_mask, \
             const char *event), (c, propagate, destination, event_mask, event)) \
    FUNCTION(xcb_void_cookie_t, xcb_change_window_attributes, (xcb_connection_t *c, xcb_window_t window, uint32_t value_mask, \
             const void *value_list), (c, window, value_mask, value_list))

#define GD_DECLARE(type, name, parameters, arguments) type gd_##name parameters;
GD_SDBUS_FUNCTIONS(GD_DECLARE)
GD_XCB_FUNCTIONS(GD_DECLARE)
#undef GD_DECLARE
// Returning nothing, so not in the lists above.
void gd_xcb_disconnect(xcb_connection_t *c);
void gd_xcb_screen_next(xcb_screen_iterator_t *i);

// sd-bus's message builders are variadic and so do not import into Swift: one
// fixed-signature wrapper for each call gestured makes, named after what it sends.
int gd_bus_call(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface, const char *member,
                sd_bus_message_handler_t cb, void *ud);
int gd_bus_call_s(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface, const char *member,
                  sd_bus_message_handler_t cb, void *ud, const char *a);
// gestured's GNOME Shell extension's FollowBeginChannel(s kind, s source, u time, h channel).
int gd_bus_call_follow_begin(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface,
                             sd_bus_message_handler_t cb, void *ud, const char *kind, const char *source, uint32_t time, int channel);
int gd_bus_call_ss(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface, const char *member,
                   sd_bus_message_handler_t cb, void *ud, const char *a, const char *b);
// gestured's GNOME Shell extension's SetShortcuts(a(ss) shortcuts): `count` pairs of a
// binding's name and its accelerator.
int gd_bus_call_set_shortcuts(sd_bus *bus, sd_bus_slot **slot, const char *dest, const char *path, const char *iface,
                              sd_bus_message_handler_t cb, void *ud, const char *const *names, const char *const *accelerators,
                              size_t count);
int gd_bus_reply(sd_bus_message *m);
/// An error reply `name` (org.freedesktop.DBus.Error.AccessDenied…) with `message`.
int gd_bus_reply_error(sd_bus_message *m, const char *name, const char *message);

// libwayland-client (the outputs' transforms, for screen rotation; the focused window on
// wlroots compositors), loaded the same way.
// Its headers are not needed: the few types gestured uses are declared here, as the
// stable wire ABI (wayland.xml) fixes them.
const char *gd_load_wayland(void);
struct wl_display;
struct wl_proxy;
struct gd_wl_registry_listener {
    void (*global)(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version);
    void (*global_remove)(void *data, struct wl_proxy *registry, uint32_t name);
};
/// wl_output's events up to version 4, in the protocol's order.
struct gd_wl_output_listener {
    void (*geometry)(void *data, struct wl_proxy *output, int32_t x, int32_t y, int32_t physical_width, int32_t physical_height,
                     int32_t subpixel, const char *make, const char *model, int32_t transform);
    void (*mode)(void *data, struct wl_proxy *output, uint32_t flags, int32_t width, int32_t height, int32_t refresh);
    void (*done)(void *data, struct wl_proxy *output);
    void (*scale)(void *data, struct wl_proxy *output, int32_t factor);
    void (*name)(void *data, struct wl_proxy *output, const char *name);
    void (*description)(void *data, struct wl_proxy *output, const char *description);
};
struct wl_display *gd_wl_display_connect(const char *name);
void gd_wl_display_disconnect(struct wl_display *d);
int gd_wl_display_get_fd(struct wl_display *d);
int gd_wl_display_flush(struct wl_display *d);
int gd_wl_display_prepare_read(struct wl_display *d);
int gd_wl_display_read_events(struct wl_display *d);
void gd_wl_display_cancel_read(struct wl_display *d);
int gd_wl_display_dispatch_pending(struct wl_display *d);
int gd_wl_proxy_add_listener(struct wl_proxy *p, void (**listener)(void), void *data);
void gd_wl_proxy_destroy(struct wl_proxy *p);
/// wl_display.get_registry and wl_registry.bind(wl_output): the protocol's variadic marshalling.
struct wl_proxy *gd_wl_get_registry(struct wl_display *d);
struct wl_proxy *gd_wl_bind_output(struct wl_proxy *registry, uint32_t name, uint32_t version);
/// wl_display.sync: a wl_callback whose `done` comes after everything the compositor sent before it.
struct wl_proxy *gd_wl_display_sync(struct wl_display *d);
struct gd_wl_callback_listener {
    void (*done)(void *data, struct wl_proxy *callback, uint32_t callback_data);
};
/// wayland-util.h's struct wl_array: `size` bytes at `data`.
struct gd_wl_array {
    size_t size;
    size_t alloc;
    void *data;
};

// wlr-foreign-toplevel-management-unstable-v1 (wlroots compositors' window list), up to
// version 3: its interfaces are written out in lazy.c from the protocol's XML.
/// "zwlr_foreign_toplevel_manager_v1", as the registry announces it.
const char *gd_wlr_toplevel_manager_name(void);
/// wl_registry.bind(zwlr_foreign_toplevel_manager_v1).
struct wl_proxy *gd_wl_bind_wlr_toplevel_manager(struct wl_proxy *registry, uint32_t name, uint32_t version);
/// zwlr_foreign_toplevel_handle_v1.destroy: the request, and the proxy with it.
void gd_wlr_toplevel_handle_destroy(struct wl_proxy *handle);
/// zwlr_foreign_toplevel_manager_v1's events.
struct gd_wlr_toplevel_manager_listener {
    void (*toplevel)(void *data, struct wl_proxy *manager, struct wl_proxy *handle);
    void (*finished)(void *data, struct wl_proxy *manager);
};
// ext-workspace-v1 (wayland-protocols staging: labwc's and other compositors' workspaces),
// version 1: its interfaces are written out in lazy.c from the protocol's XML.
/// "ext_workspace_manager_v1", as the registry announces it.
const char *gd_ext_workspace_manager_name(void);
/// wl_registry.bind(ext_workspace_manager_v1).
struct wl_proxy *gd_wl_bind_ext_workspace_manager(struct wl_proxy *registry, uint32_t name, uint32_t version);
/// ext_workspace_manager_v1.commit: the requests before it, carried out together.
void gd_ext_workspace_manager_commit(struct wl_proxy *manager);
/// ext_workspace_handle_v1.activate (takes effect at the next commit).
void gd_ext_workspace_activate(struct wl_proxy *workspace);
/// ext_workspace_handle_v1.destroy and ext_workspace_group_handle_v1.destroy: the request, and the proxy with it.
void gd_ext_workspace_destroy(struct wl_proxy *workspace);
void gd_ext_workspace_group_destroy(struct wl_proxy *group);
struct gd_ext_workspace_manager_listener {
    void (*workspace_group)(void *data, struct wl_proxy *manager, struct wl_proxy *group);
    void (*workspace)(void *data, struct wl_proxy *manager, struct wl_proxy *workspace);
    void (*done)(void *data, struct wl_proxy *manager);
    void (*finished)(void *data, struct wl_proxy *manager);
};
struct gd_ext_workspace_group_listener {
    void (*capabilities)(void *data, struct wl_proxy *group, uint32_t capabilities);
    void (*output_enter)(void *data, struct wl_proxy *group, struct wl_proxy *output);
    void (*output_leave)(void *data, struct wl_proxy *group, struct wl_proxy *output);
    void (*workspace_enter)(void *data, struct wl_proxy *group, struct wl_proxy *workspace);
    void (*workspace_leave)(void *data, struct wl_proxy *group, struct wl_proxy *workspace);
    void (*removed)(void *data, struct wl_proxy *group);
};
struct gd_ext_workspace_listener {
    void (*id)(void *data, struct wl_proxy *workspace, const char *id);
    void (*name)(void *data, struct wl_proxy *workspace, const char *name);
    void (*coordinates)(void *data, struct wl_proxy *workspace, struct gd_wl_array *coordinates);
    void (*state)(void *data, struct wl_proxy *workspace, uint32_t state);
    void (*capabilities)(void *data, struct wl_proxy *workspace, uint32_t capabilities);
    void (*removed)(void *data, struct wl_proxy *workspace);
};

/// zwlr_foreign_toplevel_handle_v1's events up to version 3, in the protocol's order.
struct gd_wlr_toplevel_handle_listener {
    void (*title)(void *data, struct wl_proxy *handle, const char *title);
    void (*app_id)(void *data, struct wl_proxy *handle, const char *app_id);
    void (*output_enter)(void *data, struct wl_proxy *handle, struct wl_proxy *output);
    void (*output_leave)(void *data, struct wl_proxy *handle, struct wl_proxy *output);
    void (*state)(void *data, struct wl_proxy *handle, struct gd_wl_array *state);
    void (*done)(void *data, struct wl_proxy *handle);
    void (*closed)(void *data, struct wl_proxy *handle);
    void (*parent)(void *data, struct wl_proxy *handle, struct wl_proxy *parent);
};

// libxcb-randr (the outputs' rotations on X11), loaded the same way, after gd_load_xcb:
// only an X11 session's rotation source maps it (Debian: libxcb-randr0; header from
// libxcb-randr0-dev).
const char *gd_load_xcb_randr(void);

#define GD_XCB_RANDR_FUNCTIONS(FUNCTION) \
    FUNCTION(xcb_randr_query_version_cookie_t, xcb_randr_query_version, (xcb_connection_t *c, uint32_t major_version, uint32_t minor_version), \
             (c, major_version, minor_version)) \
    FUNCTION(xcb_void_cookie_t, xcb_randr_select_input, (xcb_connection_t *c, xcb_window_t window, uint16_t enable), (c, window, enable)) \
    FUNCTION(xcb_randr_get_screen_resources_current_cookie_t, xcb_randr_get_screen_resources_current, (xcb_connection_t *c, xcb_window_t window), \
             (c, window)) \
    FUNCTION(xcb_randr_output_t *, xcb_randr_get_screen_resources_current_outputs, (const xcb_randr_get_screen_resources_current_reply_t *R), (R)) \
    FUNCTION(int, xcb_randr_get_screen_resources_current_outputs_length, (const xcb_randr_get_screen_resources_current_reply_t *R), (R)) \
    FUNCTION(xcb_randr_get_output_info_cookie_t, xcb_randr_get_output_info, (xcb_connection_t *c, xcb_randr_output_t output, \
             xcb_timestamp_t config_timestamp), (c, output, config_timestamp)) \
    FUNCTION(uint8_t *, xcb_randr_get_output_info_name, (const xcb_randr_get_output_info_reply_t *R), (R)) \
    FUNCTION(int, xcb_randr_get_output_info_name_length, (const xcb_randr_get_output_info_reply_t *R), (R)) \
    FUNCTION(xcb_randr_get_crtc_info_cookie_t, xcb_randr_get_crtc_info, (xcb_connection_t *c, xcb_randr_crtc_t crtc, \
             xcb_timestamp_t config_timestamp), (c, crtc, config_timestamp))

#define GD_DECLARE(type, name, parameters, arguments) type gd_##name parameters;
GD_XCB_RANDR_FUNCTIONS(GD_DECLARE)
#undef GD_DECLARE
/// RandR's first event number on `c` (its ScreenChangeNotify; RRNotify is the next), or
/// -1 when the server has no RandR. Waits for the server's answer, once per connection
/// (xcb_get_extension_data: the requests need RandR's opcode before they can be sent).
int gd_xcb_randr_first_event(xcb_connection_t *c);

#endif
