#ifndef ROLODECK_ALLOCATOR_H
#define ROLODECK_ALLOCATOR_H

/* The options the command's memory allocator (jemalloc) starts with. */
extern const char *malloc_conf;

#endif
