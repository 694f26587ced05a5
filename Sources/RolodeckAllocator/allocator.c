#include "rolodeck_allocator.h"

/* jemalloc reads its options from this symbol as the process starts (Debian's library has no
 * prefix); linked only into the command, which alone links jemalloc.
 *
 * - narenas:1: one arena for all threads (each keeps its own cache). With an arena a core,
 *   the memory a thread frees is kept for that arena, and the build's threads, which read
 *   100,000 files on every core and render on every core, held more than it needs.
 * - dirty_decay_ms:1000, muzzy_decay_ms:0: pages freed and not used again go back to the
 *   system after a second instead of ten (a cold build takes a few). `watch` and `serve` keep
 *   them instead, for the next rebuild (RolodeckCLI's FreedMemory.swift).
 * - thp:always: jemalloc asks for transparent huge pages (madvise) on the memory it maps, where
 *   the kernel offers them only when asked, as Debian's does by default. A build touches all its
 *   memory for the first time, and a 4 KB page costs a fault apiece: `check` of 100,000 files
 *   took 94,000 of them, 5,500 with huge pages. In turns at 100,000 contacts (docs/performance.md,
 *   eighth pass): one contacts.json builds cold in 9 % less time, a file per contact the same
 *   within the noise; the peak is 2 to 4 % higher.
 *
 * A cold build of 100,000 contacts, 4 alternating runs each (docs/performance.md): a file per
 * contact 572 → 493 MB peak, one contacts.json 454 → 428 MB, the wall time the same. */
const char *malloc_conf = "narenas:1,dirty_decay_ms:1000,muzzy_decay_ms:0,thp:always";
