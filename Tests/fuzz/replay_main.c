/* Runs the fuzz target once per file named on the command line (or every file of a directory),
   without libFuzzer: the kept corpus as a regression test against the ordinary library build. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf;
  long n;
  if (!f) { perror(path); return 1; }
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = (uint8_t *)malloc(n > 0 ? (size_t)n : 1);
  if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) { fclose(f); free(buf); return 1; }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, (size_t)n);
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  int i, runs = 0;
  for (i = 1; i < argc; i++) {
    DIR *d = opendir(argv[i]);
    if (d) {
      struct dirent *e;
      char path[4096];
      while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
        if (run_file(path)) return 1;
        runs++;
      }
      closedir(d);
    } else {
      if (run_file(argv[i])) return 1;
      runs++;
    }
  }
  printf("replayed %d inputs: no finding\n", runs);
  return 0;
}
