/**
 * Scheduling constraints of core/v1 Pod: node and pod affinity, tolerations, topology spread.
 * Field names, protobuf numbers and markers as kube v1.32 has them; descriptions are ours.
 */
import { labelSelectorSchema } from '../../api/index.js';
import { message } from '../message-table.js';

export const nodeSelectorRequirement = message(
  'NodeSelectorRequirement',
  'A node label or field key, an operator and values to compare with.',
  {
    key: [1, 'string', 'The label or field key.'],
    operator: [2, 'string', 'In, NotIn, Exists, DoesNotExist, Gt or Lt.'],
    values: [
      3,
      ['string'],
      'Values to compare with; one integer for Gt and Lt, none for Exists and DoesNotExist.',
      { list: 'atomic' },
    ],
  },
  { required: ['key', 'operator'] },
);

export const nodeSelectorTerm = message(
  'NodeSelectorTerm',
  'Requirements a node must all meet (ANDed).',
  {
    matchExpressions: [1, [nodeSelectorRequirement], 'Requirements on node labels.', { list: 'atomic' }],
    matchFields: [2, [nodeSelectorRequirement], 'Requirements on node fields.', { list: 'atomic' }],
  },
  { mapType: 'atomic' },
);

export const preferredSchedulingTerm = message(
  'PreferredSchedulingTerm',
  'A node preference with its weight.',
  {
    preference: [2, nodeSelectorTerm],
    weight: [1, 'int32', 'Weight of the preference, 1 to 100.'],
  },
  { required: ['weight', 'preference'] },
);

export const nodeSelector = message(
  'NodeSelector',
  'Terms of which a node must match at least one (ORed).',
  {
    nodeSelectorTerms: [
      1,
      [nodeSelectorTerm],
      'The terms; a node matching any of them is selected.',
      { list: 'atomic' },
    ],
  },
  { required: ['nodeSelectorTerms'], mapType: 'atomic' },
);

export const nodeAffinity = message('NodeAffinity', 'Rules that attract the pod to nodes.', {
  preferredDuringSchedulingIgnoredDuringExecution: [
    2,
    [preferredSchedulingTerm],
    'Nodes the scheduler prefers, by weight; not enforced once the pod runs.',
    { list: 'atomic' },
  ],
  requiredDuringSchedulingIgnoredDuringExecution: [1, nodeSelector, '', { ptr: true }],
});

export const podAffinityTerm = message(
  'PodAffinityTerm',
  'Pods (selected by labels, in some namespaces) that must or must not share a topology domain with this pod.',
  {
    labelSelector: [1, labelSelectorSchema, '', { ptr: true }],
    matchLabelKeys: [
      5,
      ['string'],
      "Keys of this pod's labels whose values are added to the label selector (key in value).",
      { list: 'atomic' },
    ],
    mismatchLabelKeys: [
      6,
      ['string'],
      "Keys of this pod's labels whose values are added to the label selector (key notin value).",
      { list: 'atomic' },
    ],
    namespaceSelector: [4, labelSelectorSchema, '', { ptr: true }],
    namespaces: [
      2,
      ['string'],
      "Namespaces of the selected pods; empty with no namespaceSelector means this pod's namespace.",
      { list: 'atomic' },
    ],
    topologyKey: [3, 'string', 'Node label whose value defines the topology domain (e.g. a zone).'],
  },
  { required: ['topologyKey'] },
);

export const weightedPodAffinityTerm = message(
  'WeightedPodAffinityTerm',
  'A pod affinity term with its weight.',
  {
    podAffinityTerm: [2, podAffinityTerm],
    weight: [1, 'int32', 'Weight of the term, 1 to 100.'],
  },
  { required: ['weight', 'podAffinityTerm'] },
);

export const podAffinity = message('PodAffinity', 'Rules that place the pod near other pods.', {
  preferredDuringSchedulingIgnoredDuringExecution: [
    2,
    [weightedPodAffinityTerm],
    'Terms the scheduler prefers to meet, by weight.',
    { list: 'atomic' },
  ],
  requiredDuringSchedulingIgnoredDuringExecution: [
    1,
    [podAffinityTerm],
    'Terms that must all be met for the pod to be scheduled.',
    { list: 'atomic' },
  ],
});

export const podAntiAffinity = message('PodAntiAffinity', 'Rules that keep the pod away from other pods.', {
  preferredDuringSchedulingIgnoredDuringExecution: [
    2,
    [weightedPodAffinityTerm],
    'Terms the scheduler prefers to meet, by weight.',
    { list: 'atomic' },
  ],
  requiredDuringSchedulingIgnoredDuringExecution: [
    1,
    [podAffinityTerm],
    'Terms that must all be met for the pod to be scheduled.',
    { list: 'atomic' },
  ],
});

export const affinity = message(
  'Affinity',
  'Scheduling constraints of the pod: node affinity, pod affinity and anti-affinity.',
  {
    nodeAffinity: [1, nodeAffinity, '', { ptr: true }],
    podAffinity: [2, podAffinity, '', { ptr: true }],
    podAntiAffinity: [3, podAntiAffinity, '', { ptr: true }],
  },
);

export const toleration = message(
  'Toleration',
  'Lets the pod be scheduled onto, or stay on, nodes with a matching taint.',
  {
    effect: [4, 'string', 'Effect matched: NoSchedule, PreferNoSchedule or NoExecute; empty matches all.'],
    key: [1, 'string', 'Taint key matched; empty (with operator Exists) matches every taint.'],
    operator: [2, 'string', 'Exists or Equal (the default).'],
    tolerationSeconds: [
      5,
      'int64',
      'Seconds a NoExecute taint is tolerated before eviction; unset is forever.',
      { ptr: true },
    ],
    value: [3, 'string', 'Taint value matched with operator Equal; empty with Exists.'],
  },
);

export const topologySpreadConstraint = message(
  'TopologySpreadConstraint',
  'How matching pods are spread over a topology.',
  {
    labelSelector: [4, labelSelectorSchema, '', { ptr: true }],
    matchLabelKeys: [
      8,
      ['string'],
      "Keys of this pod's labels added to the selector with their values.",
      { list: 'atomic' },
    ],
    maxSkew: [1, 'int32', 'Largest allowed difference in matching pods between two domains.'],
    minDomains: [5, 'int32', 'Least number of eligible domains.', { ptr: true }],
    nodeAffinityPolicy: [
      6,
      'string',
      'Honor (the default) or Ignore: whether node affinity limits the domains counted.',
      { ptr: true },
    ],
    nodeTaintsPolicy: [
      7,
      'string',
      'Honor or Ignore (the default): whether node taints limit the domains counted.',
      { ptr: true },
    ],
    topologyKey: [2, 'string', 'Node label whose values are the domains.'],
    whenUnsatisfiable: [3, 'string', 'DoNotSchedule or ScheduleAnyway.'],
  },
  { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] },
);
