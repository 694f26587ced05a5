#ifndef ROLODECK_SYSTEM_H
#define ROLODECK_SYSTEM_H

#include <stddef.h>

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0, or -1 with errno set (EINVAL or ENOSYS where the file system or kernel lacks it).
int rolodeck_rename_exchange(int old_dir, const char *old_path, int new_dir, const char *new_path);

/// Takes a write lease on the regular file open at `fd` (`F_SETLEASE` with `F_WRLCK`), which the
/// kernel grants only while no one else has the file open; 0, or -1 with errno set (EAGAIN when
/// someone has it open). Someone who opens the file while the lease is held waits until it is
/// let go of, and the kernel tells the holder with SIGIO, whose default action ends a process:
/// the first call makes SIGIO ignored when it has no handler.
int rolodeck_take_write_lease(int fd);

/// Whether the signal `number` is ignored (its action SIG_IGN), as `nohup` leaves SIGHUP for the
/// program it starts; 1 or 0.
int rolodeck_signal_is_ignored(int number);

/// Lets go of the lease on `fd`; 0, or -1 with errno set.
int rolodeck_drop_lease(int fd);

/// Flushes the file system holding `fd` to disk (Linux syncfs); 0 or -1 with errno set.
int rolodeck_syncfs(int fd);

/// The memory cmark uses while it parses and renders one note, in the shape of C's calloc,
/// realloc and free (for cmark's `cmark_mem`). Blocks are taken one after another from large
/// chunks of this thread's arena and never freed one by one: cmark makes and frees many small
/// nodes and buffers for every note, and none of them goes through malloc this way.
/// `rolodeck_note_arena_reset` lets go of them all once the note is done; a thread keeps one
/// 64 KB chunk between notes.
void *rolodeck_note_calloc(size_t count, size_t size);
/// `realloc` for cmark: grows the chunk's last block in place when there is room, else copies.
void *rolodeck_note_realloc(void *block, size_t size);
/// `free` for cmark: does nothing; the block goes when the arena is reset.
void rolodeck_note_free(void *block);
/// Lets go of every block of this thread's arena, keeping its first chunk for the next note.
void rolodeck_note_arena_reset(void);

/// Whether this processor has the SHA extensions (and the SSSE3 and SSE4.1 they come with), so
/// that rolodeck_sha256_blocks may be called; 1 or 0 (always 0 off x86-64).
int rolodeck_sha256_hardware(void);

/// SHA-256's 64 round constants (FIPS 180-4, 4.2.2), for the compression functions here and in
/// Swift alike.
const unsigned int *rolodeck_sha256_round_constants(void);

/// Runs SHA-256's compression function over `blocks` 64-byte blocks at `data`, updating `state`
/// (the eight words A to H) with the SHA extensions. Call only when rolodeck_sha256_hardware
/// says 1.
void rolodeck_sha256_blocks(unsigned int state[8], const unsigned char *data, size_t blocks);

#endif
