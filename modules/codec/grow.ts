/** `buf`, or a copy of its first `len` bytes in a buffer doubled until `n` more bytes fit after them */
export function withRoom(buf: Uint8Array<ArrayBuffer>, len: number, n: number): Uint8Array<ArrayBuffer> {
  if (len + n <= buf.length) return buf;
  let size = buf.length * 2;
  while (size < len + n) size *= 2;
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, len));
  return next;
}
