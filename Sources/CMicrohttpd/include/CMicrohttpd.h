// libmicrohttpd (Debian's libmicrohttpd12), the HTTP server of `gestured ui` and never
// of the daemon: loaded with dlopen when `gestured ui` starts, not linked. Linked, it
// and what it pulls in (gnutls, nettle, p11-kit, …) were mapped by every gestured
// process: the daemon's resident memory grew by about 3 MB, a third of its 10 MB
// budget, for a library it never calls.
//
// Each function gestured calls is `gd_` + its name, with its own signature, through
// a pointer that gd_load_microhttpd() fills; call that first. Only the header is
// needed to build (libmicrohttpd-dev). MHD_start_daemon and MHD_get_daemon_info are
// variadic and do not import into Swift: one fixed-signature wrapper for each way
// gestured calls them.
#ifndef GESTURED_CMICROHTTPD_H
#define GESTURED_CMICROHTTPD_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// NULL once loaded (again: at once), or why not (dlerror's text; valid until the next call).
const char *gd_load_microhttpd(void);

// FUNCTION(return type, name, parameters, arguments): what gestured calls.
#define GD_MHD_FUNCTIONS(FUNCTION) \
    FUNCTION(void, MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon)) \
    FUNCTION(enum MHD_Result, MHD_run, (struct MHD_Daemon *daemon), (daemon)) \
    FUNCTION(enum MHD_Result, MHD_get_timeout, (struct MHD_Daemon *daemon, MHD_UNSIGNED_LONG_LONG *timeout), (daemon, timeout)) \
    FUNCTION(int, MHD_get_connection_values, (struct MHD_Connection *connection, enum MHD_ValueKind kind, \
             MHD_KeyValueIterator iterator, void *iterator_cls), (connection, kind, iterator, iterator_cls)) \
    FUNCTION(void, MHD_suspend_connection, (struct MHD_Connection *connection), (connection)) \
    FUNCTION(void, MHD_resume_connection, (struct MHD_Connection *connection), (connection)) \
    FUNCTION(struct MHD_Response *, MHD_create_response_from_buffer, (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), \
             (size, buffer, mode)) \
    FUNCTION(struct MHD_Response *, MHD_create_response_from_callback, (uint64_t size, size_t block_size, \
             MHD_ContentReaderCallback crc, void *crc_cls, MHD_ContentReaderFreeCallback crfc), (size, block_size, crc, crc_cls, crfc)) \
    FUNCTION(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *response, const char *header, const char *content), \
             (response, header, content)) \
    FUNCTION(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *connection, unsigned int status_code, \
             struct MHD_Response *response), (connection, status_code, response)) \
    FUNCTION(void, MHD_destroy_response, (struct MHD_Response *response), (response))

#define GD_MHD_DECLARE(type, name, parameters, arguments) type gd_##name parameters;
GD_MHD_FUNCTIONS(GD_MHD_DECLARE)
#undef GD_MHD_DECLARE

// MHD_start_daemon(3) bound to 127.0.0.1:`port` only (0: an ephemeral port), in
// external epoll mode (no thread of its own: the caller waits on the epoll descriptor
// and calls MHD_run), with suspend/resume for event streams. `timeout_s`: idle
// connections close after it; `connection_limit` and `memory_limit` (bytes per
// connection) bound what clients can hold. `notify` is told of each connection
// accepted and closed (MHD_OPTION_NOTIFY_CONNECTION; closed: before its socket is).
struct MHD_Daemon *gd_mhd_start_loopback(uint16_t port, unsigned connection_limit, unsigned timeout_s, size_t memory_limit,
                                         MHD_AccessHandlerCallback handler, void *handler_cls,
                                         MHD_RequestCompletedCallback completed, void *completed_cls,
                                         MHD_NotifyConnectionCallback notify, void *notify_cls);
// MHD_get_daemon_info(3) MHD_DAEMON_INFO_EPOLL_FD: the descriptor to wait on; -1 if none.
int gd_mhd_epoll_fd(struct MHD_Daemon *daemon);
// MHD_get_connection_info(3) MHD_CONNECTION_INFO_CONNECTION_FD: the connection's socket; -1 if unknown.
int gd_mhd_connection_fd(struct MHD_Connection *connection);
// MHD_get_daemon_info(3) MHD_DAEMON_INFO_BIND_PORT: the port bound; 0 if unknown.
uint16_t gd_mhd_port(struct MHD_Daemon *daemon);

// What a content reader returns at the end of its stream, or on an error (cast macros
// do not import).
static const ssize_t gd_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t gd_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;

#endif
