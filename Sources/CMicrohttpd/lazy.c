#include "CMicrohttpd.h"
#include "CLinux.h"
#include <string.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#define GD_POINTER(type, name, parameters, arguments) static __typeof__(name) *p_##name;
GD_MHD_FUNCTIONS(GD_POINTER)
GD_POINTER(struct MHD_Daemon *, MHD_start_daemon, , )
GD_POINTER(const union MHD_DaemonInfo *, MHD_get_daemon_info, , )
GD_POINTER(const union MHD_ConnectionInfo *, MHD_get_connection_info, , )

#define GD_FORWARD(type, name, parameters, arguments) type gd_##name parameters { return p_##name arguments; }
GD_MHD_FUNCTIONS(GD_FORWARD)

struct MHD_Daemon *gd_mhd_start_loopback(uint16_t port, unsigned connection_limit, unsigned timeout_s, size_t memory_limit,
                                         MHD_AccessHandlerCallback handler, void *handler_cls,
                                         MHD_RequestCompletedCallback completed, void *completed_cls,
                                         MHD_NotifyConnectionCallback notify, void *notify_cls) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return p_MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, port, NULL, NULL, handler, handler_cls,
                              MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                              MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                              MHD_OPTION_CONNECTION_TIMEOUT, timeout_s,
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                              MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                              MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                              MHD_OPTION_END);
}

int gd_mhd_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = p_MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info ? info->epoll_fd : -1;
}

uint16_t gd_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = p_MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

int gd_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = p_MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

#define GD_SYMBOL(type, name, parameters, arguments) { #name, (void **)&p_##name },
static const struct clinux_symbol symbols[] = {
    GD_MHD_FUNCTIONS(GD_SYMBOL)
    GD_SYMBOL(void, MHD_start_daemon, , )
    GD_SYMBOL(void, MHD_get_daemon_info, , )
    GD_SYMBOL(void, MHD_get_connection_info, , )
};

const char *gd_load_microhttpd(void) {
    static void *loaded;
    return clinux_load_library("libmicrohttpd.so.12", symbols, sizeof symbols / sizeof *symbols, &loaded);
}
