/**
 * Volumes of core/v1 Pod: every volume source of kube v1.32 and projections (ephemeral claims: pod-schema-claims.ts).
 * Field names, protobuf numbers and markers as kube v1.32 has them; descriptions are ours.
 */
import { labelSelectorSchema, localObjectReferenceSchema } from '../../api/index.js';
import { message } from '../message-table.js';
import { ephemeralVolumeSource } from './pod-schema-claims.js';
import { objectFieldSelector, resourceFieldSelector } from './pod-schema-containers.js';

export const awsElasticBlockStoreVolumeSource = message(
  'AWSElasticBlockStoreVolumeSource',
  'An AWS EBS disk (deprecated in-tree plugin).',
  {
    fsType: [2, 'string', 'Filesystem type.'],
    partition: [3, 'int32', 'Partition to mount.'],
    readOnly: [4, 'bool', 'Whether the mount is read-only.'],
    volumeID: [1, 'string', 'ID of the EBS volume.'],
  },
  { required: ['volumeID'] },
);

export const azureDiskVolumeSource = message(
  'AzureDiskVolumeSource',
  'An Azure data disk (deprecated in-tree plugin).',
  {
    cachingMode: [3, 'string', 'None, ReadOnly or ReadWrite.', { ptr: true }],
    diskName: [1, 'string', 'Name of the disk.'],
    diskURI: [2, 'string', 'URI of the disk.'],
    fsType: [4, 'string', 'Filesystem type.', { ptr: true }],
    kind: [6, 'string', 'Shared, Dedicated or Managed.', { ptr: true }],
    readOnly: [5, 'bool', 'Whether the mount is read-only.', { ptr: true }],
  },
  { required: ['diskName', 'diskURI'] },
);

export const azureFileVolumeSource = message(
  'AzureFileVolumeSource',
  'An Azure File share (deprecated in-tree plugin).',
  {
    readOnly: [3, 'bool', 'Whether the mount is read-only.'],
    secretName: [1, 'string', 'Secret with the account name and key.'],
    shareName: [2, 'string', 'Name of the share.'],
  },
  { required: ['secretName', 'shareName'] },
);

export const cephFSVolumeSource = message(
  'CephFSVolumeSource',
  'A CephFS mount (deprecated).',
  {
    monitors: [1, ['string'], 'Ceph monitors.', { list: 'atomic' }],
    path: [2, 'string', 'Path within the filesystem.'],
    readOnly: [6, 'bool', 'Whether the mount is read-only.'],
    secretFile: [4, 'string', 'Path of the key ring.'],
    secretRef: [5, localObjectReferenceSchema, '', { ptr: true }],
    user: [3, 'string', 'RADOS user name.'],
  },
  { required: ['monitors'] },
);

export const cinderVolumeSource = message(
  'CinderVolumeSource',
  'An OpenStack Cinder volume (deprecated in-tree plugin).',
  {
    fsType: [2, 'string', 'Filesystem type.'],
    readOnly: [3, 'bool', 'Whether the mount is read-only.'],
    secretRef: [4, localObjectReferenceSchema, '', { ptr: true }],
    volumeID: [1, 'string', 'ID of the volume.'],
  },
  { required: ['volumeID'] },
);

export const keyToPath = message(
  'KeyToPath',
  'A key of a ConfigMap or Secret projected to a file.',
  {
    key: [1, 'string', 'The key.'],
    mode: [3, 'int32', 'File mode bits, 0 to 0777.', { ptr: true }],
    path: [2, 'string', 'Relative path of the file; may not contain "..".'],
  },
  { required: ['key', 'path'] },
);

export const configMapVolumeSource = message(
  'ConfigMapVolumeSource',
  'A ConfigMap whose keys become files.',
  {
    defaultMode: [3, 'int32', 'Mode bits of the files, 0644 by default.', { ptr: true }],
    items: [2, [keyToPath], 'Keys to project, and where; every key when unset.', { list: 'atomic' }],
    name: [1, 'string', 'Name of the ConfigMap.', { embed: 1 }],
    optional: [4, 'bool', 'Whether the ConfigMap or its keys may be missing.', { ptr: true }],
  },
);

export const csiVolumeSource = message(
  'CSIVolumeSource',
  'An ephemeral volume from a CSI driver.',
  {
    driver: [1, 'string', 'Name of the CSI driver.'],
    fsType: [3, 'string', 'Filesystem type.', { ptr: true }],
    nodePublishSecretRef: [5, localObjectReferenceSchema, '', { ptr: true }],
    readOnly: [2, 'bool', 'Whether the mount is read-only.', { ptr: true }],
    volumeAttributes: [4, { map: 'string' }, 'Driver-specific properties.'],
  },
  { required: ['driver'] },
);

export const downwardAPIVolumeFile = message(
  'DownwardAPIVolumeFile',
  'A file holding a field of the pod or a resource value.',
  {
    fieldRef: [2, objectFieldSelector, '', { ptr: true }],
    mode: [4, 'int32', 'File mode bits, 0 to 0777.', { ptr: true }],
    path: [1, 'string', 'Relative path of the file.'],
    resourceFieldRef: [3, resourceFieldSelector, '', { ptr: true }],
  },
  { required: ['path'] },
);

export const downwardAPIVolumeSource = message('DownwardAPIVolumeSource', 'Files with fields of the pod.', {
  defaultMode: [2, 'int32', 'Mode bits of the files, 0644 by default.', { ptr: true }],
  items: [1, [downwardAPIVolumeFile], 'The files.', { list: 'atomic' }],
});

export const emptyDirVolumeSource = message(
  'EmptyDirVolumeSource',
  'A temporary directory that lives as long as the pod.',
  {
    medium: [1, 'string', 'Storage medium: "" (the node\'s default) or Memory.'],
    sizeLimit: [2, 'quantity', '', { ptr: true }],
  },
);

export const fcVolumeSource = message('FCVolumeSource', 'A Fibre Channel volume.', {
  fsType: [3, 'string', 'Filesystem type.'],
  lun: [2, 'int32', 'Target LUN number.', { ptr: true }],
  readOnly: [4, 'bool', 'Whether the mount is read-only.'],
  targetWWNs: [1, ['string'], 'Target world wide names.', { list: 'atomic' }],
  wwids: [5, ['string'], 'World wide identifiers; either these or targetWWNs and lun.', { list: 'atomic' }],
});

export const flexVolumeSource = message(
  'FlexVolumeSource',
  'A volume from a FlexVolume driver (deprecated).',
  {
    driver: [1, 'string', 'Name of the driver.'],
    fsType: [2, 'string', 'Filesystem type.'],
    options: [5, { map: 'string' }, 'Driver options.'],
    readOnly: [4, 'bool', 'Whether the mount is read-only.'],
    secretRef: [3, localObjectReferenceSchema, '', { ptr: true }],
  },
  { required: ['driver'] },
);

export const flockerVolumeSource = message('FlockerVolumeSource', 'A Flocker dataset (deprecated).', {
  datasetName: [1, 'string', 'Name of the dataset.'],
  datasetUUID: [2, 'string', 'UUID of the dataset.'],
});

export const gcePersistentDiskVolumeSource = message(
  'GCEPersistentDiskVolumeSource',
  'A GCE persistent disk (deprecated in-tree plugin).',
  {
    fsType: [2, 'string', 'Filesystem type.'],
    partition: [3, 'int32', 'Partition to mount.'],
    pdName: [1, 'string', 'Name of the disk.'],
    readOnly: [4, 'bool', 'Whether the mount is read-only.'],
  },
  { required: ['pdName'] },
);

export const gitRepoVolumeSource = message(
  'GitRepoVolumeSource',
  'A git repository cloned into a directory (deprecated).',
  {
    directory: [3, 'string', 'Directory to clone into.'],
    repository: [1, 'string', 'URL of the repository.'],
    revision: [2, 'string', 'Commit to check out.'],
  },
  { required: ['repository'] },
);

export const glusterfsVolumeSource = message(
  'GlusterfsVolumeSource',
  'A Glusterfs mount (deprecated).',
  {
    endpoints: [1, 'string', 'Endpoints object naming the Glusterfs servers.'],
    path: [2, 'string', 'Glusterfs volume path.'],
    readOnly: [3, 'bool', 'Whether the mount is read-only.'],
  },
  { required: ['endpoints', 'path'] },
);

export const hostPathVolumeSource = message(
  'HostPathVolumeSource',
  'A file or directory of the node.',
  {
    path: [1, 'string', 'Path on the node.'],
    type: [
      2,
      'string',
      'What must be at the path: "", DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice or BlockDevice.',
      { ptr: true },
    ],
  },
  { required: ['path'] },
);

export const imageVolumeSource = message('ImageVolumeSource', 'An OCI image or artifact mounted read-only.', {
  pullPolicy: [2, 'string', 'Always, Never or IfNotPresent.'],
  reference: [1, 'string', 'Image or artifact reference.'],
});

export const iscsiVolumeSource = message(
  'ISCSIVolumeSource',
  'An iSCSI disk.',
  {
    chapAuthDiscovery: [8, 'bool', 'Whether iSCSI discovery uses CHAP.'],
    chapAuthSession: [11, 'bool', 'Whether iSCSI sessions use CHAP.'],
    fsType: [5, 'string', 'Filesystem type.'],
    initiatorName: [12, 'string', 'Custom initiator name.', { ptr: true }],
    iqn: [2, 'string', 'Target iSCSI qualified name.'],
    iscsiInterface: [4, 'string', 'iSCSI interface; tcp by default.'],
    lun: [3, 'int32', 'Target LUN number.'],
    portals: [7, ['string'], 'More target portals.', { list: 'atomic' }],
    readOnly: [6, 'bool', 'Whether the mount is read-only.'],
    secretRef: [10, localObjectReferenceSchema, '', { ptr: true }],
    targetPortal: [1, 'string', 'Target portal, address and port.'],
  },
  { required: ['targetPortal', 'iqn', 'lun'] },
);

export const nFSVolumeSource = message(
  'NFSVolumeSource',
  'An NFS export.',
  {
    path: [2, 'string', 'Exported path.'],
    readOnly: [3, 'bool', 'Whether the mount is read-only.'],
    server: [1, 'string', 'Host name or address of the server.'],
  },
  { required: ['server', 'path'] },
);

export const persistentVolumeClaimVolumeSource = message(
  'PersistentVolumeClaimVolumeSource',
  "A PersistentVolumeClaim of the pod's namespace.",
  {
    claimName: [1, 'string', 'Name of the claim.'],
    readOnly: [2, 'bool', 'Whether the mount is read-only.'],
  },
  { required: ['claimName'] },
);

export const photonPersistentDiskVolumeSource = message(
  'PhotonPersistentDiskVolumeSource',
  'A Photon Controller disk (deprecated).',
  {
    fsType: [2, 'string', 'Filesystem type.'],
    pdID: [1, 'string', 'ID of the disk.'],
  },
  { required: ['pdID'] },
);

export const portworxVolumeSource = message(
  'PortworxVolumeSource',
  'A Portworx volume (deprecated in-tree plugin).',
  {
    fsType: [2, 'string', 'Filesystem type.'],
    readOnly: [3, 'bool', 'Whether the mount is read-only.'],
    volumeID: [1, 'string', 'ID of the volume.'],
  },
  { required: ['volumeID'] },
);

export const clusterTrustBundleProjection = message(
  'ClusterTrustBundleProjection',
  'ClusterTrustBundle certificates written to a file.',
  {
    labelSelector: [3, labelSelectorSchema, '', { ptr: true }],
    name: [1, 'string', 'A bundle by name; exclusive with signerName.', { ptr: true }],
    optional: [5, 'bool', 'Whether a missing bundle is tolerated.', { ptr: true }],
    path: [4, 'string', 'Relative path of the file.'],
    signerName: [2, 'string', 'Bundles of this signer, joined.', { ptr: true }],
  },
  { required: ['path'] },
);

export const configMapProjection = message(
  'ConfigMapProjection',
  "A ConfigMap's keys projected into a volume.",
  {
    items: [2, [keyToPath], 'Keys to project; every key when unset.', { list: 'atomic' }],
    name: [1, 'string', 'Name of the ConfigMap.', { embed: 1 }],
    optional: [4, 'bool', 'Whether the ConfigMap or its keys may be missing.', { ptr: true }],
  },
);

export const downwardAPIProjection = message('DownwardAPIProjection', 'Pod fields projected into a volume.', {
  items: [1, [downwardAPIVolumeFile], 'The files.', { list: 'atomic' }],
});

export const secretProjection = message('SecretProjection', "A Secret's keys projected into a volume.", {
  items: [2, [keyToPath], 'Keys to project; every key when unset.', { list: 'atomic' }],
  name: [1, 'string', 'Name of the Secret.', { embed: 1 }],
  optional: [4, 'bool', 'Whether the Secret or its keys may be missing.', { ptr: true }],
});

export const serviceAccountTokenProjection = message(
  'ServiceAccountTokenProjection',
  'A service account token written to a file and renewed by the kubelet.',
  {
    audience: [1, 'string', "Audience of the token; the API server's by default."],
    expirationSeconds: [
      2,
      'int64',
      'Requested lifetime of the token; 1 hour by default, at least 10 minutes.',
      { ptr: true },
    ],
    path: [3, 'string', 'Relative path of the file.'],
  },
  { required: ['path'] },
);

export const volumeProjection = message('VolumeProjection', 'One source of a projected volume.', {
  clusterTrustBundle: [5, clusterTrustBundleProjection, '', { ptr: true }],
  configMap: [3, configMapProjection, '', { ptr: true }],
  downwardAPI: [2, downwardAPIProjection, '', { ptr: true }],
  secret: [1, secretProjection, '', { ptr: true }],
  serviceAccountToken: [4, serviceAccountTokenProjection, '', { ptr: true }],
});

export const projectedVolumeSource = message(
  'ProjectedVolumeSource',
  'Several sources projected into one directory.',
  {
    defaultMode: [2, 'int32', 'Mode bits of the files, 0644 by default.', { ptr: true }],
    sources: [1, [volumeProjection], 'The sources.', { list: 'atomic' }],
  },
);

export const quobyteVolumeSource = message(
  'QuobyteVolumeSource',
  'A Quobyte mount (deprecated).',
  {
    group: [5, 'string', 'Group the volume is accessed as.'],
    readOnly: [3, 'bool', 'Whether the mount is read-only.'],
    registry: [1, 'string', 'Quobyte registries, host:port, comma-separated.'],
    tenant: [6, 'string', 'Tenant owning the volume.'],
    user: [4, 'string', 'User the volume is accessed as.'],
    volume: [2, 'string', 'Name of the volume.'],
  },
  { required: ['registry', 'volume'] },
);

export const rbdVolumeSource = message(
  'RBDVolumeSource',
  'A Rados Block Device (deprecated).',
  {
    fsType: [3, 'string', 'Filesystem type.'],
    image: [2, 'string', 'RADOS image name.'],
    keyring: [6, 'string', 'Path of the key ring.'],
    monitors: [1, ['string'], 'Ceph monitors.', { list: 'atomic' }],
    pool: [4, 'string', 'RADOS pool.'],
    readOnly: [8, 'bool', 'Whether the mount is read-only.'],
    secretRef: [7, localObjectReferenceSchema, '', { ptr: true }],
    user: [5, 'string', 'RADOS user name.'],
  },
  { required: ['monitors', 'image'] },
);

export const scaleIOVolumeSource = message(
  'ScaleIOVolumeSource',
  'A ScaleIO volume (deprecated).',
  {
    fsType: [9, 'string', 'Filesystem type.'],
    gateway: [1, 'string', 'Host address of the ScaleIO gateway.'],
    protectionDomain: [5, 'string', 'Protection domain of the storage.'],
    readOnly: [10, 'bool', 'Whether the mount is read-only.'],
    secretRef: [3, localObjectReferenceSchema, '', { ptr: true }],
    sslEnabled: [4, 'bool', 'Whether the gateway is reached over SSL.'],
    storageMode: [7, 'string', 'ThickProvisioned or ThinProvisioned.'],
    storagePool: [6, 'string', 'Storage pool of the protection domain.'],
    system: [2, 'string', 'Name of the storage system.'],
    volumeName: [8, 'string', 'Name of an existing volume.'],
  },
  { required: ['gateway', 'system', 'secretRef'] },
);

export const secretVolumeSource = message('SecretVolumeSource', 'A Secret whose keys become files.', {
  defaultMode: [3, 'int32', 'Mode bits of the files, 0644 by default.', { ptr: true }],
  items: [2, [keyToPath], 'Keys to project, and where; every key when unset.', { list: 'atomic' }],
  optional: [4, 'bool', 'Whether the Secret or its keys may be missing.', { ptr: true }],
  secretName: [1, 'string', 'Name of the Secret.'],
});

export const storageOSVolumeSource = message('StorageOSVolumeSource', 'A StorageOS volume (deprecated).', {
  fsType: [3, 'string', 'Filesystem type.'],
  readOnly: [4, 'bool', 'Whether the mount is read-only.'],
  secretRef: [5, localObjectReferenceSchema, '', { ptr: true }],
  volumeName: [1, 'string', 'Name of the volume.'],
  volumeNamespace: [2, 'string', 'StorageOS namespace of the volume.'],
});

export const vsphereVirtualDiskVolumeSource = message(
  'VsphereVirtualDiskVolumeSource',
  'A vSphere disk (deprecated in-tree plugin).',
  {
    fsType: [2, 'string', 'Filesystem type.'],
    storagePolicyID: [4, 'string', 'ID of the storage policy.'],
    storagePolicyName: [3, 'string', 'Name of the storage policy.'],
    volumePath: [1, 'string', 'Path of the disk.'],
  },
  { required: ['volumePath'] },
);

export const volume = message(
  'Volume',
  'A named volume of the pod and where its contents come from: exactly one source.',
  {
    awsElasticBlockStore: [4, awsElasticBlockStoreVolumeSource, '', { ptr: true, embed: 2 }],
    azureDisk: [22, azureDiskVolumeSource, '', { ptr: true, embed: 2 }],
    azureFile: [18, azureFileVolumeSource, '', { ptr: true, embed: 2 }],
    cephfs: [14, cephFSVolumeSource, '', { ptr: true, embed: 2 }],
    cinder: [13, cinderVolumeSource, '', { ptr: true, embed: 2 }],
    configMap: [19, configMapVolumeSource, '', { ptr: true, embed: 2 }],
    csi: [28, csiVolumeSource, '', { ptr: true, embed: 2 }],
    downwardAPI: [16, downwardAPIVolumeSource, '', { ptr: true, embed: 2 }],
    emptyDir: [2, emptyDirVolumeSource, '', { ptr: true, embed: 2 }],
    ephemeral: [29, ephemeralVolumeSource, '', { ptr: true, embed: 2 }],
    fc: [17, fcVolumeSource, '', { ptr: true, embed: 2 }],
    flexVolume: [12, flexVolumeSource, '', { ptr: true, embed: 2 }],
    flocker: [15, flockerVolumeSource, '', { ptr: true, embed: 2 }],
    gcePersistentDisk: [3, gcePersistentDiskVolumeSource, '', { ptr: true, embed: 2 }],
    gitRepo: [5, gitRepoVolumeSource, '', { ptr: true, embed: 2 }],
    glusterfs: [9, glusterfsVolumeSource, '', { ptr: true, embed: 2 }],
    hostPath: [1, hostPathVolumeSource, '', { ptr: true, embed: 2 }],
    image: [30, imageVolumeSource, '', { ptr: true, embed: 2 }],
    iscsi: [8, iscsiVolumeSource, '', { ptr: true, embed: 2 }],
    name: [1, 'string', 'Name of the volume, a DNS label unique in the pod.'],
    nfs: [7, nFSVolumeSource, '', { ptr: true, embed: 2 }],
    persistentVolumeClaim: [10, persistentVolumeClaimVolumeSource, '', { ptr: true, embed: 2 }],
    photonPersistentDisk: [23, photonPersistentDiskVolumeSource, '', { ptr: true, embed: 2 }],
    portworxVolume: [24, portworxVolumeSource, '', { ptr: true, embed: 2 }],
    projected: [26, projectedVolumeSource, '', { ptr: true, embed: 2 }],
    quobyte: [21, quobyteVolumeSource, '', { ptr: true, embed: 2 }],
    rbd: [11, rbdVolumeSource, '', { ptr: true, embed: 2 }],
    scaleIO: [25, scaleIOVolumeSource, '', { ptr: true, embed: 2 }],
    secret: [6, secretVolumeSource, '', { ptr: true, embed: 2 }],
    storageos: [27, storageOSVolumeSource, '', { ptr: true, embed: 2 }],
    vsphereVolume: [20, vsphereVirtualDiskVolumeSource, '', { ptr: true, embed: 2 }],
  },
  { required: ['name'] },
);
