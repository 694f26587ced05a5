// GNU extensions that Swift's Glibc module does not expose, because they need _GNU_SOURCE.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rolodeck_system.h"

int rolodeck_rename_exchange(int old_dir, const char *old_path, int new_dir, const char *new_path) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, old_dir, old_path, new_dir, new_path, RENAME_EXCHANGE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int rolodeck_take_write_lease(int fd) {
    static int sigio_ignored = 0;
    if (!__atomic_load_n(&sigio_ignored, __ATOMIC_ACQUIRE)) {
        struct sigaction current;
        if (sigaction(SIGIO, NULL, &current) == 0 && current.sa_handler == SIG_DFL) {
            signal(SIGIO, SIG_IGN);
        }
        __atomic_store_n(&sigio_ignored, 1, __ATOMIC_RELEASE);
    }
    return fcntl(fd, F_SETLEASE, F_WRLCK);
}

int rolodeck_drop_lease(int fd) {
    return fcntl(fd, F_SETLEASE, F_UNLCK);
}

int rolodeck_syncfs(int fd) {
    return syncfs(fd);
}

int rolodeck_signal_is_ignored(int number) {
    struct sigaction current;
    return sigaction(number, NULL, &current) == 0 && current.sa_handler == SIG_IGN;
}
