#include <xcb/xcb.h>
// xcb_poll_for_reply: collect a reply without waiting for it.
#include <xcb/xcbext.h>
