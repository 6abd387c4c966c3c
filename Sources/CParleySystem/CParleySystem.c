#define _GNU_SOURCE
#include <pthread.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include "CParleySystem.h"

void parley_set_thread_name(const char *name) {
    pthread_setname_np(pthread_self(), name);
}

int parley_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/* Unix domain sockets for the local admin socket. A path longer than sun_path fails with
   ENAMETOOLONG rather than being cut short. */

static int parley_unix_address(const char *path, struct sockaddr_un *address) {
    memset(address, 0, sizeof(*address));
    address->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(address->sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address->sun_path, path);
    return 0;
}

int parley_unix_listen(const char *path, int backlog) {
    struct sockaddr_un address;
    if (parley_unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(fd, backlog) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int parley_unix_connect(const char *path) {
    struct sockaddr_un address;
    if (parley_unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int parley_accept_blocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}

int parley_peer_uid(int fd, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = (unsigned int)credentials.uid;
    return 0;
}

int parley_set_timeouts(int fd, int seconds) {
    struct timeval tv;
    tv.tv_sec = seconds;
    tv.tv_usec = 0;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0) return -1;
    return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* A write to a local socket whose peer has gone fails with EPIPE instead of raising SIGPIPE,
   whatever the process does with the signal (the command line does not block it). */
long parley_send_nosignal(int fd, const void *buffer, unsigned long length) {
    return (long)send(fd, buffer, length, MSG_NOSIGNAL);
}
