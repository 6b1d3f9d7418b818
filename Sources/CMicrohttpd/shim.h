// libmicrohttpd from Debian, for `gestured ui` (Sources/LiveView). MHD_start_daemon and
// MHD_get_daemon_info are variadic and so do not import into Swift: one
// fixed-signature wrapper for each way gestured calls them, and nothing else.
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// MHD_start_daemon(3) bound to 127.0.0.1:`port` only (0: an ephemeral port), in
// external epoll mode (no thread of its own: the caller waits on the epoll descriptor
// and calls MHD_run), with suspend/resume for event streams. `timeout_s`: idle
// connections close after it; `connection_limit` and `memory_limit` (bytes per
// connection) bound what clients can hold.
static inline struct MHD_Daemon *gestured_mhd_start_loopback(uint16_t port, unsigned connection_limit, unsigned timeout_s,
                                                             size_t memory_limit, MHD_AccessHandlerCallback handler,
                                                             void *handler_cls, MHD_RequestCompletedCallback completed,
                                                             void *completed_cls) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_s,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_END);
}

// MHD_get_daemon_info(3) MHD_DAEMON_INFO_EPOLL_FD: the descriptor to wait on; -1 if none.
static inline int gestured_mhd_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info ? info->epoll_fd : -1;
}

// MHD_get_daemon_info(3) MHD_DAEMON_INFO_BIND_PORT: the port bound; 0 if unknown.
static inline uint16_t gestured_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

// What a content reader returns at the end of its stream, or on an error (cast macros
// do not import).
static const ssize_t gestured_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t gestured_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
