#ifndef ROLODECK_SYSTEM_H
#define ROLODECK_SYSTEM_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0, or -1 with errno set (EINVAL or ENOSYS where the file system or kernel lacks it).
int rolodeck_rename_exchange(int old_dir, const char *old_path, int new_dir, const char *new_path);

/// Flushes the file system holding `fd` to disk (Linux syncfs); 0 or -1 with errno set.
int rolodeck_syncfs(int fd);

#endif
