/** The built-in kinds of the first slice, as data. */
import type { ResourceDefinition } from '../registry/index.js';
import { selfSubjectReviewDefinition } from './authentication/selfsubjectreview.js';
import { tokenReviewDefinition } from './authentication/tokenreview.js';
import {
  localSubjectAccessReviewDefinition,
  selfSubjectAccessReviewDefinition,
  selfSubjectRulesReviewDefinition,
  subjectAccessReviewDefinition,
} from './authorization/access-reviews.js';
import { apiServiceDefinition } from './apiregistration/apiservice.js';
import { leaseDefinition } from './coordination/lease.js';
import { configMapDefinition } from './core/configmap.js';
import { endpointsDefinition } from './core/endpoints.js';
import { eventDefinition } from './core/event.js';
import { namespaceDefinition } from './core/namespace.js';
import { nodeDefinition } from './core/node.js';
import { podDefinition } from './core/pod.js';
import { secretDefinition } from './core/secret.js';
import { serviceDefinition } from './core/service.js';
import { serviceAccountDefinition } from './core/serviceaccount.js';
import { endpointSliceDefinition } from './discovery/endpointslice.js';
import { eventsEventDefinition } from './events/event.js';
import { clusterRoleBindingDefinition, roleBindingDefinition } from './rbac/bindings.js';
import { clusterRoleDefinition, roleDefinition } from './rbac/roles.js';

export const builtinDefinitions: ResourceDefinition[] = [
  namespaceDefinition,
  configMapDefinition,
  secretDefinition,
  serviceAccountDefinition,
  eventDefinition,
  eventsEventDefinition,
  serviceDefinition,
  podDefinition,
  endpointsDefinition,
  leaseDefinition,
  nodeDefinition,
  endpointSliceDefinition,
  roleDefinition,
  clusterRoleDefinition,
  roleBindingDefinition,
  clusterRoleBindingDefinition,
  tokenReviewDefinition,
  selfSubjectReviewDefinition,
  subjectAccessReviewDefinition,
  localSubjectAccessReviewDefinition,
  selfSubjectAccessReviewDefinition,
  selfSubjectRulesReviewDefinition,
  apiServiceDefinition,
];
