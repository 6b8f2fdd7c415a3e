/** A flag of this module's (--feature-gates, --runtime-config) that cannot be used; the server must not start. */
export class FlagError extends Error {
  constructor(
    readonly flag: string,
    /** the flag's value as given; omitted when the problem is not one value's */
    value: string | undefined,
    readonly reason: string,
  ) {
    super(
      value === undefined
        ? `${flag}: ${reason}`
        : `invalid argument "${value}" for "${flag}" flag: ${reason}`,
    );
  }
}

const truthy = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const falsy = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Go's strconv.ParseBool, which kube's map flags use; undefined for anything else. */
export function parseBool(text: string): boolean | undefined {
  if (truthy.has(text)) return true;
  if (falsy.has(text)) return false;
  return undefined;
}

/** The error text Go's strconv.ParseBool gives, as kube repeats it. */
export function parseBoolError(text: string): string {
  return `strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`;
}
