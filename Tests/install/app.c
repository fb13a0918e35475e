/* A user's program built against an installed pindrop with pkg-config (make test-install). */
#include <pindrop.h>
#include <stdio.h>

int main(void) {
  pindrop_map *map = NULL;
  pindrop_id ids[2];
  double dist[2];
  size_t n;
  if (pindrop_map_create(NULL, &map) != PINDROP_OK) return 1;
  if (pindrop_map_add(map, 7, -118.35, 33.9) != PINDROP_OK) return 1;
  n = pindrop_map_nearby(map, -118.35, 33.9001, 50, ids, dist, 2);
  pindrop_map_destroy(map);
  if (n != 1 || ids[0] != 7) return 1;
  printf("pindrop %s installed and usable (pin %lld at %.1f m)\n", pindrop_version(), (long long)ids[0], dist[0]);
  return 0;
}
