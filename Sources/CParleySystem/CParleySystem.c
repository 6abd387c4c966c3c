#define _GNU_SOURCE
#include <pthread.h>
#include <sys/socket.h>
#include "CParleySystem.h"

void parley_set_thread_name(const char *name) {
    pthread_setname_np(pthread_self(), name);
}

int parley_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
