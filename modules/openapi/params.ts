/** The query and path parameters kube documents on its operations. Descriptions are ours. */

export interface ParamSpec {
  name: string;
  in: 'query' | 'path';
  type: 'string' | 'integer' | 'boolean';
  description: string;
  required?: boolean;
}

const q = (name: string, type: ParamSpec['type'], description: string): ParamSpec => ({
  name,
  in: 'query',
  type,
  description,
});

export const pretty = q('pretty', 'string', "If 'true', the response is indented for reading.");

export function nameParam(kind: string): ParamSpec {
  return { name: 'name', in: 'path', type: 'string', description: `name of the ${kind}`, required: true };
}

export const namespaceParam: ParamSpec = {
  name: 'namespace',
  in: 'path',
  type: 'string',
  description: 'namespace of the objects',
  required: true,
};

/** ListOptions, as on list and watch operations. */
export const listParams: ParamSpec[] = [
  q('allowWatchBookmarks', 'boolean', 'Asks a watch for BOOKMARK events; ignored for plain lists.'),
  q('continue', 'string', 'Token from a previous page to fetch the next one.'),
  q('fieldSelector', 'string', 'Restricts results by field values. Defaults to everything.'),
  q('labelSelector', 'string', 'Restricts results by labels. Defaults to everything.'),
  q('limit', 'integer', 'Maximum number of items to return; the response carries a continue token for more.'),
  q('resourceVersion', 'string', 'Which version of the data the request may be served from.'),
  q('resourceVersionMatch', 'string', 'How resourceVersion applies to a list: Exact or NotOlderThan.'),
  q('sendInitialEvents', 'boolean', 'Starts a watch with synthetic ADDED events for the current state.'),
  q('timeoutSeconds', 'integer', 'Ends the list or watch after this many seconds.'),
  q('watch', 'boolean', 'Streams changes instead of returning a list.'),
];

const dryRun = q('dryRun', 'string', 'All: validate and admit the request without persisting anything.');
const fieldManager = q('fieldManager', 'string', 'Name of the actor making the change, for field ownership.');
const fieldValidation = q(
  'fieldValidation',
  'string',
  'Ignore, Warn or Strict: what to do with unknown or duplicate fields in the body.',
);

export const writeParams: ParamSpec[] = [dryRun, fieldManager, fieldValidation];

export const patchParams: ParamSpec[] = [
  dryRun,
  q('fieldManager', 'string', 'Name of the actor making the change; required for apply patches.'),
  fieldValidation,
  q('force', 'boolean', 'Apply only: take over fields other managers own.'),
];

const deleteOptionParams: ParamSpec[] = [
  q('gracePeriodSeconds', 'integer', 'Seconds before the object is deleted; 0 deletes at once.'),
  q(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    'Deletes an object that cannot be read from storage. Dangerous.',
  ),
  q('orphanDependents', 'boolean', 'Deprecated; use propagationPolicy.'),
  q('propagationPolicy', 'string', 'Orphan, Background or Foreground: what happens to dependents.'),
];

export const deleteParams: ParamSpec[] = sortParams([dryRun, ...deleteOptionParams]);

export const deleteCollectionParams: ParamSpec[] = sortParams([
  dryRun,
  ...deleteOptionParams,
  ...listParams.filter((p) => !['allowWatchBookmarks', 'watch'].includes(p.name)),
]);

/** Parameters of the streaming subresources. */
export const connectParams: Record<string, ParamSpec[]> = {
  log: [
    q('container', 'string', 'Container to read; optional when the pod has one.'),
    q('follow', 'boolean', 'Keep the stream open and follow new output.'),
    q('insecureSkipTLSVerifyBackend', 'boolean', 'Skip verifying the serving certificate of the node.'),
    q('limitBytes', 'integer', 'Stop after this many bytes.'),
    q('previous', 'boolean', 'Read the previous, terminated instance of the container.'),
    q('sinceSeconds', 'integer', 'Only output newer than this many seconds.'),
    q('stream', 'string', 'All, Stdout or Stderr.'),
    q('tailLines', 'integer', 'Start this many lines from the end.'),
    q('timestamps', 'boolean', 'Prefix each line with its timestamp.'),
  ],
  exec: [
    q('command', 'string', 'Command to run; repeat for each argument.'),
    q('container', 'string', 'Container to run in.'),
    q('stderr', 'boolean', 'Stream standard error.'),
    q('stdin', 'boolean', 'Stream standard input.'),
    q('stdout', 'boolean', 'Stream standard output.'),
    q('tty', 'boolean', 'Allocate a terminal.'),
  ],
  attach: [
    q('container', 'string', 'Container to attach to.'),
    q('stderr', 'boolean', 'Stream standard error.'),
    q('stdin', 'boolean', 'Stream standard input.'),
    q('stdout', 'boolean', 'Stream standard output.'),
    q('tty', 'boolean', 'Allocate a terminal.'),
  ],
  portforward: [q('ports', 'integer', 'Ports to forward.')],
  proxy: [q('path', 'string', 'Path to forward to.')],
};

export function sortParams(params: ParamSpec[]): ParamSpec[] {
  return [...params].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
