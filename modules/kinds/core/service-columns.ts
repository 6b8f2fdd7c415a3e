/** kubectl get services: kube's service printer (Type, Cluster-IP, External-IP, Port(s), wide Selector). */
import type { PrinterColumn } from '../../registry/index.js';
import type { KubeObject } from '../../api/index.js';
import { objAt, listAt, strAt, type Obj } from '../values.js';

const spec = (obj: KubeObject): Obj => objAt(obj.spec);

/** "80/TCP,443:30443/TCP" */
export function servicePorts(obj: KubeObject): string {
  const text = listAt(spec(obj).ports)
    .map((p) => {
      const port = objAt(p);
      const nodePort = typeof port.nodePort === 'number' && port.nodePort > 0 ? `:${port.nodePort}` : '';
      return `${String(port.port ?? 0)}${nodePort}/${strAt(port.protocol)}`;
    })
    .join(',');
  return text || '<none>';
}

/** Load balancer ingress points: IP or else hostname, de-duplicated and sorted (never clipped: the server prints wide). */
function loadBalancerAddresses(obj: KubeObject): string[] {
  const ingress = listAt(objAt(objAt(obj.status).loadBalancer).ingress).map(objAt);
  const found = new Set<string>();
  for (const entry of ingress) {
    const address = strAt(entry.ip) || strAt(entry.hostname);
    if (address) found.add(address);
  }
  return [...found].sort();
}

export function serviceExternalIP(obj: KubeObject): string {
  const externalIPs = listAt(spec(obj).externalIPs).map(strAt);
  switch (spec(obj).type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(obj), ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return strAt(spec(obj).externalName);
  }
  return '<unknown>';
}

/** labels.FormatLabels: sorted key=value pairs, "<none>" for none. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries(objAt(labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length > 0 ? entries.map(([k, v]) => `${k}=${strAt(v)}`).join(',') : '<none>';
}

export const serviceColumns: PrinterColumn[] = [
  {
    name: 'Type',
    type: 'string',
    description: 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.',
    priority: 0,
    jsonPath: '.spec.type',
    cell: (obj) => strAt(spec(obj).type),
  },
  {
    name: 'Cluster-IP',
    type: 'string',
    description: 'The address of the service inside the cluster.',
    priority: 0,
    jsonPath: '.spec.clusterIP',
    cell: (obj) => {
      const ips = listAt(spec(obj).clusterIPs);
      return ips.length > 0 ? strAt(ips[0]) : '<none>';
    },
  },
  {
    name: 'External-IP',
    type: 'string',
    description: 'Addresses outside the cluster the service is reachable at.',
    priority: 0,
    jsonPath: '.spec.externalIPs',
    cell: serviceExternalIP,
  },
  {
    name: 'Port(s)',
    type: 'string',
    description: 'The ports the service exposes.',
    priority: 0,
    jsonPath: '.spec.ports',
    cell: servicePorts,
  },
];

export const serviceSelectorColumn: PrinterColumn = {
  name: 'Selector',
  type: 'string',
  description: 'Labels of the pods the service sends traffic to.',
  priority: 1,
  jsonPath: '.spec.selector',
  cell: (obj) => formatLabels(spec(obj).selector),
};
