export { readWebhookKubeconfig, type WebhookConnection } from './kubeconfig.js';
export { bearerOf, WebhookError, WebhookTransport } from './transport.js';
export { fileToken } from './token-file.js';
export { atHostPath } from './host-path.js';

/** the review versions kube's webhooks speak (TokenReview, SubjectAccessReview) */
export type WebhookVersion = 'v1' | 'v1beta1';
