// The memory cmark uses while it parses and renders one note (see rolodeck_system.h).
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rolodeck_system.h"

// A chunk starts with a 16-byte header holding the chunk before it; each block starts with a
// 16-byte header holding its capacity, so that realloc knows what to copy. 16 bytes keep blocks
// aligned as malloc's are.
enum { HEADER = 16, CHUNK = 64 * 1024 };

struct arena {
    char *chunk;  // the chunk blocks are taken from
    size_t next;  // where in `chunk` the next block's header goes
    size_t end;   // the size of `chunk`
    size_t last;  // where in `chunk` the last block's header is; SIZE_MAX before any
    char *first;  // the chunk kept between notes
};

static _Thread_local struct arena arena = {NULL, 0, 0, SIZE_MAX, NULL};

// A key whose value is a thread's first chunk, so that the chunk is freed when the thread ends.
static pthread_key_t first_chunk_key;
static pthread_once_t first_chunk_key_once = PTHREAD_ONCE_INIT;

static void make_first_chunk_key(void) {
    if (pthread_key_create(&first_chunk_key, free) != 0) abort();
}

// malloc, or the end of the program, as cmark's own allocator does when memory is out.
static void *allocate_or_abort(size_t size) {
    void *block = malloc(size);
    if (block == NULL) abort();
    return block;
}

// A block of `size` bytes from this thread's chunk, or from a new chunk when it is full (one of
// the block's own size for a block larger than a chunk).
static void *take(size_t size) {
    if (size > SIZE_MAX - 2 * HEADER - CHUNK) abort();
    size_t rounded = (size + HEADER - 1) & ~(size_t)(HEADER - 1);
    if (arena.chunk == NULL) {
        arena.first = arena.chunk = allocate_or_abort(CHUNK);
        pthread_once(&first_chunk_key_once, make_first_chunk_key);
        pthread_setspecific(first_chunk_key, arena.first);
        arena.next = HEADER;
        arena.end = CHUNK;
    }
    if (arena.next + HEADER + rounded > arena.end) {
        size_t length = rounded + 2 * HEADER > CHUNK ? rounded + 2 * HEADER : CHUNK;
        char *chunk = allocate_or_abort(length);
        *(char **)chunk = arena.chunk;
        arena.chunk = chunk;
        arena.next = HEADER;
        arena.end = length;
    }
    char *header = arena.chunk + arena.next;
    *(size_t *)header = rounded;
    arena.last = arena.next;
    arena.next += HEADER + rounded;
    return header + HEADER;
}

void *rolodeck_note_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    void *block = take(count * size);
    memset(block, 0, count * size);
    return block;
}

void *rolodeck_note_realloc(void *block, size_t size) {
    if (block == NULL) return take(size);
    char *header = (char *)block - HEADER;
    size_t capacity = *(size_t *)header;
    if (size <= capacity) return block;
    size_t rounded = (size + HEADER - 1) & ~(size_t)(HEADER - 1);
    // The chunk's last block grows in place when the chunk has room.
    if (arena.last != SIZE_MAX && header == arena.chunk + arena.last && size <= SIZE_MAX - 2 * HEADER - CHUNK
        && arena.last + HEADER + rounded <= arena.end) {
        *(size_t *)header = rounded;
        arena.next = arena.last + HEADER + rounded;
        return block;
    }
    void *moved = take(size);
    memcpy(moved, block, capacity);
    return moved;
}

void rolodeck_note_free(void *block) {
    (void)block;
}

void rolodeck_note_arena_reset(void) {
    if (arena.chunk == NULL) return;
    while (arena.chunk != arena.first) {
        char *previous = *(char **)arena.chunk;
        free(arena.chunk);
        arena.chunk = previous;
    }
    arena.next = HEADER;
    arena.end = CHUNK;
    arena.last = SIZE_MAX;
}
