export * from './user.js';
export { Authenticator } from './authenticator.js';
export { parseTokenFile } from './token-file.js';
export { adminCredentials, kubeconfig, type AdminCredentials } from './admin.js';
