/*
 * A diagnostic for bench/lab/dev-memory.mjs --malloc (never part of companion): preloaded into the daemon with
 * LD_PRELOAD, a thread polls for $COMPANION_MALLOC_DIR/trigger and answers each with glibc's malloc_info() in
 * $COMPANION_MALLOC_DIR/info-<n>.xml (then an empty done-<n>): per arena, the memory it holds from the system and
 * the free chunks in it; and the blocks mapped on their own. dev-memory.mjs compiles it with gcc when asked.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[512];

static void *poll_trigger(void *unused) {
  (void)unused;
  char trigger[600], out[600];
  snprintf(trigger, sizeof trigger, "%s/trigger", dir);
  for (int n = 0;; n++) {
    while (access(trigger, F_OK) != 0) usleep(50000);
    unlink(trigger);
    snprintf(out, sizeof out, "%s/info-%d.xml", dir, n);
    FILE *file = fopen(out, "w");
    if (file != NULL) {
      malloc_info(0, file);
      fclose(file);
    }
    snprintf(out, sizeof out, "%s/done-%d", dir, n);
    file = fopen(out, "w");
    if (file != NULL) fclose(file);
  }
  return NULL;
}

__attribute__((constructor)) static void start(void) {
  const char *given = getenv("COMPANION_MALLOC_DIR");
  if (given == NULL || strlen(given) >= sizeof dir) return;
  strcpy(dir, given);
  pthread_t thread;
  if (pthread_create(&thread, NULL, poll_trigger, NULL) == 0) pthread_detach(thread);
}
