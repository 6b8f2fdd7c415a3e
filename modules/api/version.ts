/** The Kubernetes release whose API this server serves (discovery's /version, metric and API deprecations). */
export const servedRelease = { major: 1, minor: 32, patch: 3 } as const;

/** `1.32` */
export const servedMinorVersion = `${servedRelease.major}.${servedRelease.minor}`;
