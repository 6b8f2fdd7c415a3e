/** The CBOR media types kube-apiserver v1.32 serves (KEP-4222) and the magic prefix of every encoded object. */

export const cborMediaType = 'application/cbor';
/** watch streams: an RFC 8742 sequence, one WatchEvent data item after another */
export const cborSequenceMediaType = 'application/cbor-seq';
/** server-side apply with a CBOR body; JSON, merge and strategic merge patches have no CBOR form */
export const applyPatchCborMediaType = 'application/apply-patch+cbor';

/**
 * The head of tag 55799 ("self-described CBOR", RFC 8949 3.4.6). kube encloses every object it encodes in it
 * and uses it to recognise CBOR; no UTF-8 text starts with these bytes.
 */
export const selfDescribedPrefix: Uint8Array = Uint8Array.of(0xd9, 0xd9, 0xf7);

export function hasSelfDescribedPrefix(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xd9 && bytes[1] === 0xd9 && bytes[2] === 0xf7;
}
