/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as it travels as JSON. Every field is optional because a
 * decoded object is only as complete as what the client sent; validation says what is missing.
 */
import type { KubeObject, Schema } from '../../api/index.js';

export const crdGroup = 'apiextensions.k8s.io';
export const crdVersion = 'v1';

export type ResourceScope = 'Cluster' | 'Namespaced';
export type ConversionStrategy = 'None' | 'Webhook';
export type ConditionStatus = 'True' | 'False' | 'Unknown';
/** the condition types kube's controllers write */
export type CRDConditionType =
  | 'Established'
  | 'NamesAccepted'
  | 'NonStructuralSchema'
  | 'Terminating'
  | 'KubernetesAPIApprovalPolicyConformant';

export interface CRDNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface ScaleSubresource {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CRDSubresources {
  /** an empty object enables /status */
  status?: Record<string, never>;
  scale?: ScaleSubresource;
}

export interface PrinterColumnDefinition {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface SelectableField {
  jsonPath?: string;
}

export interface CRDVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: CRDSubresources;
  additionalPrinterColumns?: PrinterColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** base64 of PEM certificates */
  caBundle?: string;
}

export interface CRDConversion {
  strategy?: ConversionStrategy | string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions?: string[] };
}

export interface CRDSpec {
  group?: string;
  names?: CRDNames;
  scope?: ResourceScope | string;
  versions?: CRDVersion[];
  conversion?: CRDConversion;
  preserveUnknownFields?: boolean;
}

export interface CRDCondition {
  type: CRDConditionType | string;
  status: ConditionStatus;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CRDStatus {
  conditions?: CRDCondition[];
  acceptedNames?: CRDNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec: CRDSpec;
  status?: CRDStatus;
}

/** The condition of `type`, if the CRD has one. */
export function findCondition(crd: CustomResourceDefinition, type: string): CRDCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}
