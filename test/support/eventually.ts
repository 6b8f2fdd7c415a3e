import assert from 'node:assert/strict';

/** Resolves once `check` holds, asking every 100 ms; fails with `what` after `timeoutMs`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${what}: not met within ${timeoutMs} ms`);
}
