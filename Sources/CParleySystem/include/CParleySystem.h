#ifndef PARLEY_SYSTEM_H
#define PARLEY_SYSTEM_H


#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <poll.h>
#include <malloc.h>

/* glibc gives memory freed below the top of a heap back to the system only when asked. */
static inline int parley_trim_heap(void) {
    return malloc_trim(0);
}

/* At most this many malloc arenas (heaps threads allocate from) from now on; 1 on success. */
static inline int parley_limit_heap_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}

/* fcntl(2) is variadic, which Swift cannot call: these wrap the calls Parley needs. */
static inline int parley_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static inline int parley_set_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD, 0);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

/* open(2) is variadic too. */
static inline int parley_open_readonly(const char *path) {
    return open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
}

static inline int parley_errno(void) { return errno; }

/* These need _GNU_SOURCE, which must not leak into this header: glibc's types would then
   differ from the ones Swift's Glibc module sees. They live in CParleySystem.c. */
void parley_set_thread_name(const char *name);
int parley_accept(int fd);
/* The local admin socket (Unix domain, blocking): listen and connect by path, accept
   without O_NONBLOCK, the peer's uid (SO_PEERCRED), and send/receive timeouts. */
int parley_unix_listen(const char *path, int backlog);
int parley_unix_connect(const char *path);
int parley_accept_blocking(int fd);
int parley_peer_uid(int fd, unsigned int *uid);
int parley_set_timeouts(int fd, int seconds);
long parley_send_nosignal(int fd, const void *buffer, unsigned long length);

/* Socket calls with sockaddr pointers, callable alike whatever the feature macros. */
static inline int parley_getsockname(int fd, struct sockaddr_storage *out) {
    socklen_t len = (socklen_t)sizeof(*out);
    return getsockname(fd, (struct sockaddr *)out, &len);
}

static inline int parley_getpeername(int fd, struct sockaddr_storage *out) {
    socklen_t len = (socklen_t)sizeof(*out);
    return getpeername(fd, (struct sockaddr *)out, &len);
}

static inline int parley_bind(int fd, const struct sockaddr *addr, socklen_t len) {
    return bind(fd, addr, len);
}

static inline int parley_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    return connect(fd, addr, len);
}


static inline int parley_setsockopt_int(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, (socklen_t)sizeof(value));
}

static inline int parley_getsockopt_int(int fd, int level, int name, int *value) {
    socklen_t len = (socklen_t)sizeof(*value);
    return getsockopt(fd, level, name, value, &len);
}

/* The epoll_event struct is packed on x86-64; reading its fields through helpers keeps
   Swift from guessing the layout. */
static inline uint32_t parley_epoll_event_events(const struct epoll_event *e) { return e->events; }
static inline uint64_t parley_epoll_event_data(const struct epoll_event *e) { return e->data.u64; }

static inline int parley_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

/* Blocks SIGINT, SIGTERM, SIGHUP and SIGPIPE in the calling thread (and threads it creates later),
   so that signals arrive through a signalfd and writes to closed sockets return EPIPE. */
static inline int parley_block_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGPIPE);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* SIGINT and SIGTERM (shut down) and SIGHUP (reload the TLS certificate). */
static inline int parley_signalfd_for_server(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

/* Raises the soft open-file limit to the hard limit; returns the resulting soft limit. */
static inline long parley_raise_nofile_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
            getrlimit(RLIMIT_NOFILE, &rl);
        }
    }
    return (long)rl.rlim_cur;
}

#endif
