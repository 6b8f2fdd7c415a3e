/** IEEE 754 half precision, for the shortest float encoding kube writes and for reading float16 items. */

/** The half-precision bits of `value` when it converts without loss, else undefined. */
export function toFloat16Exact(value: number): number | undefined {
  if (Math.fround(value) !== value) return undefined;
  const f32 = new DataView(new ArrayBuffer(4));
  f32.setFloat32(0, value);
  const bits = f32.getUint32(0);
  const sign = (bits >>> 16) & 0x8000;
  const exp8 = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp8 === 0) return mant === 0 ? sign : undefined; // ±0, or a float32 subnormal (below half's range)
  if (exp8 === 0xff) return mant === 0 ? sign | 0x7c00 : undefined;
  const e = exp8 - 127;
  if (e >= -14 && e <= 15) return (mant & 0x1fff) === 0 ? sign | ((e + 15) << 10) | (mant >>> 13) : undefined;
  if (e >= -24 && e < -14) {
    // a half subnormal: the full significand shifted down must lose no bits
    const full = 0x800000 | mant;
    const shift = -1 - e;
    return (full & ((1 << shift) - 1)) === 0 ? sign | (full >>> shift) : undefined;
  }
  return undefined;
}

export function fromFloat16(half: number): number {
  const sign = half & 0x8000 ? -1 : 1;
  const exp = (half >>> 10) & 0x1f;
  const mant = half & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : NaN;
  return sign * (1024 + mant) * 2 ** (exp - 25);
}
