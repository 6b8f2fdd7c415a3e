/**
 * An APIService's Service as kube-apiserver resolves it with --enable-aggregator-routing=true (pgkube has no
 * cluster network, so no cluster IP to dial): `ExternalName` → its name and the APIService's port; ClusterIP,
 * NodePort and LoadBalancer → an address of the Service's endpoints, the port mapped through the Service port
 * (matched by number) to the endpoint port of the same name. Pure: the objects come in, an address or the
 * reason there is none comes out, in kube's words (the availability controller's conditions).
 */
import type { KubeObject } from '../api/index.js';

export interface ServiceReference {
  namespace: string;
  name: string;
  /** default 443 */
  port?: number;
}

/** What resolution reads: the Service, its Endpoints and its EndpointSlices (label kubernetes.io/service-name). */
export interface ServiceObjects {
  service?: KubeObject;
  endpoints?: KubeObject;
  slices: readonly KubeObject[];
}

export type Resolution =
  { ok: true; host: string; port: number } | { ok: false; reason: string; message: string };

interface ServicePort {
  name?: string;
  port?: number;
}

interface EndpointPort {
  name?: string;
  port?: number;
}

const refused = (reason: string, message: string): Resolution => ({ ok: false, reason, message });

/** The service port the APIService's port names (by number), as kube's availability check finds it. */
function servicePort(service: KubeObject, port: number): ServicePort | undefined {
  const ports = ((service.spec as { ports?: ServicePort[] } | undefined)?.ports ?? []) as ServicePort[];
  return ports.find((p) => p.port === port);
}

/** Ready addresses with the endpoint port named like the service port: Endpoints first, then EndpointSlices. */
export function endpointAddresses(
  objects: ServiceObjects,
  portName: string,
): Array<{ host: string; port: number }> {
  const out: Array<{ host: string; port: number }> = [];
  const subsets = (objects.endpoints?.subsets ?? []) as Array<{
    addresses?: Array<{ ip: string }>;
    ports?: EndpointPort[];
  }>;
  for (const subset of subsets) {
    const port = subset.ports?.find((p) => (p.name ?? '') === portName)?.port;
    if (port === undefined) continue;
    for (const address of subset.addresses ?? []) out.push({ host: address.ip, port });
  }
  if (out.length > 0 || objects.endpoints) return out;
  for (const slice of objects.slices) {
    const port = (slice.ports as EndpointPort[] | undefined)?.find((p) => (p.name ?? '') === portName)?.port;
    if (port === undefined) continue;
    for (const endpoint of (slice.endpoints ?? []) as Array<{
      addresses?: string[];
      conditions?: { ready?: boolean };
    }>) {
      // kube counts an endpoint whose readiness is unknown as ready
      if (endpoint.conditions?.ready === false) continue;
      for (const host of endpoint.addresses ?? []) out.push({ host, port });
    }
  }
  return out;
}

/**
 * Where requests for `ref` go now. `pick` chooses among several addresses (kube: at random). The reasons are
 * the availability controller's: ServiceNotFound, ServicePortError, EndpointsNotFound, MissingEndpoints.
 */
export function resolveService(
  ref: ServiceReference,
  objects: ServiceObjects,
  pick: (n: number) => number = (n) => Math.floor(Math.random() * n),
): Resolution {
  const port = ref.port ?? 443;
  const where = `service/${ref.name} in ${JSON.stringify(ref.namespace)}`;
  const service = objects.service;
  if (!service) return refused('ServiceNotFound', `${where} is not present`);
  const spec = (service.spec ?? {}) as { type?: string; externalName?: string };
  const type = spec.type ?? 'ClusterIP';
  if (type === 'ExternalName') {
    if (!spec.externalName) return refused('ServiceNotFound', `${where} has no externalName`);
    return { ok: true, host: spec.externalName.replace(/\.$/, ''), port };
  }
  if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(type))
    return refused('ServiceAccessError', `unsupported service type ${JSON.stringify(type)}`);
  const target = servicePort(service, port);
  if (!target) return refused('ServicePortError', `${where} is not listening on port ${port}`);
  if (!objects.endpoints && objects.slices.length === 0)
    return refused('EndpointsNotFound', `cannot find endpoints for ${where}`);
  const portName = target.name ?? '';
  const addresses = endpointAddresses(objects, portName);
  if (addresses.length === 0)
    return refused(
      'MissingEndpoints',
      `endpoints for ${where} have no addresses with port name ${JSON.stringify(portName)}`,
    );
  const chosen = addresses[pick(addresses.length)];
  return { ok: true, ...chosen };
}
