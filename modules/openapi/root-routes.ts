/** The discovery documents' own operations: /api/, /apis/, /apis/<group>/, /<group-version>/ and /version/. */
import { META } from './meta-schemas.js';
import { groupVersionPath, operationGroupVersion, operationTag, toValidOperationId } from './names.js';
import { component, JSON_, ok, PROTOBUF, YAML_, type PathSpec } from './operations.js';

/** GET /api/v1/ and /apis/<group>/<version>/: the group-version's APIResourceList. */
export function groupVersionRoot(group: string, version: string): PathSpec {
  return {
    path: `${groupVersionPath(group, version)}/`,
    params: [],
    ops: [
      {
        method: 'get',
        operationId: `get${operationGroupVersion(group, version)}APIResources`,
        description: 'get the resources of this group-version',
        tag: operationTag(group, version),
        params: [],
        responses: ok(component(`${META}.APIResourceList`)),
        produces: [JSON_, PROTOBUF, YAML_],
      },
    ],
  };
}

/** The small documents kube also publishes: /api/, /apis/, /apis/<group>/ and /version/. */
export function discoveryRoot(key: 'api' | 'apis' | 'version' | { group: string }): PathSpec {
  const [path, operationId, tag, schema, description] =
    key === 'api'
      ? ['/api/', 'getCoreAPIVersions', 'core', `${META}.APIVersions`, 'get the versions of the core group']
      : key === 'apis'
        ? ['/apis/', 'getAPIVersions', 'apis', `${META}.APIGroupList`, 'get the named groups']
        : key === 'version'
          ? [
              '/version/',
              'getCodeVersion',
              'version',
              'io.k8s.apimachinery.pkg.version.Info',
              'get the server version',
            ]
          : [
              `/apis/${key.group}/`,
              `get${toValidOperationId(key.group.replace(/\.k8s\.io$/, ''), true)}APIGroup`,
              operationTag(key.group),
              `${META}.APIGroup`,
              'get the versions of this group',
            ];
  const produces = key === 'version' ? [JSON_] : [JSON_, PROTOBUF, YAML_];
  return {
    path,
    params: [],
    ops: [
      {
        method: 'get',
        operationId,
        description,
        tag,
        params: [],
        responses: ok(component(schema)),
        produces,
      },
    ],
  };
}
