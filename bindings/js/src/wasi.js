// What the module may import from WASI, for hosts without WASI (browsers): load() instantiates
// the module with these functions.

/** The WASI functions wasi-libc may import, for hosts without WASI (browsers): standard output and
 *  error go to the console, randomness comes from crypto.getRandomValues, anything else reports
 *  ENOSYS. */
export function wasiShim(getMemory) {
  const ENOSYS = 52, EBADF = 8;
  const lines = { 1: "", 2: "" };
  return {
    fd_write(fd, iovs, iovsLen, nwritten) {
      const m = getMemory(), dv = new DataView(m.buffer);
      let text = "", n = 0;
      for (let i = 0; i < iovsLen; i++) {
        const p = dv.getUint32(iovs + 8 * i, true), len = dv.getUint32(iovs + 8 * i + 4, true);
        text += new TextDecoder().decode(new Uint8Array(m.buffer, p, len));
        n += len;
      }
      if (fd === 1 || fd === 2) {
        const all = lines[fd] + text, parts = all.split("\n");
        lines[fd] = parts.pop();
        for (const line of parts) (fd === 1 ? console.log : console.error)(line);
      } else return EBADF;
      dv.setUint32(nwritten, n, true);
      return 0;
    },
    fd_close() { return EBADF; },
    fd_seek() { return EBADF; },
    random_get(p, len) {
      const bytes = new Uint8Array(getMemory().buffer, p, len);
      const c = globalThis.crypto;
      if (c && c.getRandomValues) {
        for (let i = 0; i < len; i += 65536) c.getRandomValues(bytes.subarray(i, Math.min(len, i + 65536)));
      } else {
        for (let i = 0; i < len; i++) bytes[i] = Math.floor(Math.random() * 256);
      }
      return 0;
    },
    ENOSYS,
  };
}
