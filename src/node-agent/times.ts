/** kube's wire forms of time: Time (RFC 3339, seconds) and MicroTime (six fractional digits). */
export const rfc3339 = (ms = Date.now()): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const microTime = (ms = Date.now()): string => new Date(ms).toISOString().replace(/Z$/, '000Z');
