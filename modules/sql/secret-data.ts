/**
 * What of a Secret the views hide unless --sql-expose-secret-data: its values, and the one place a client
 * commonly repeats them (kubectl apply's last-applied-configuration holds the manifest, stringData included).
 * The flag is about Secrets by name, so this module names their storage key.
 */
export const secretStorageKey = '/secrets';
export const secretFields = ['data', 'stringData'] as const;
export const secretAnnotations = ['kubectl.kubernetes.io/last-applied-configuration'] as const;
