export { anonymousUser, type UserInfo } from '../api/index.js';
export { Authenticator } from './authenticator.js';
export { parseTokenFile } from './token-file.js';
export { adminCredentials, kubeconfig, type AdminCredentials } from './admin.js';
