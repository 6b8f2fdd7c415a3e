import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { localhostProfileProblem, profileProblem } from './seccomp-profile.js';

describe('seccomp profiles', () => {
  const cases: [string, unknown, RegExp | undefined][] = [
    ['allow all', { defaultAction: 'SCMP_ACT_ALLOW' }, undefined],
    [
      'errno with rules',
      {
        defaultAction: 'SCMP_ACT_ERRNO',
        defaultErrnoRet: 1,
        syscalls: [
          { names: ['read', 'write'], action: 'SCMP_ACT_ALLOW' },
          { names: ['mkdir'], action: 'SCMP_ACT_ERRNO', errnoRet: 13, args: [] },
          { names: ['ptrace'], action: 'SCMP_ACT_NOTIFY' },
        ],
      },
      undefined,
    ],
    [
      'every action kube lists',
      {
        defaultAction: 'SCMP_ACT_KILL_THREAD',
        syscalls: [
          'SCMP_ACT_KILL',
          'SCMP_ACT_KILL_PROCESS',
          'SCMP_ACT_TRAP',
          'SCMP_ACT_TRACE',
          'SCMP_ACT_LOG',
          'SECCOMP_RET_USER_NOTIF',
        ].map((action) => ({ names: ['x'], action })),
      },
      undefined,
    ],
    ['no defaultAction', { syscalls: [] }, /defaultAction is required/],
    ['unknown defaultAction', { defaultAction: 'SCMP_ACT_MAYBE' }, /unknown defaultAction "SCMP_ACT_MAYBE"/],
    [
      'notify as default',
      { defaultAction: 'SCMP_ACT_NOTIFY' },
      /SCMP_ACT_NOTIFY cannot be the defaultAction/,
    ],
    ['user notif as default', { defaultAction: 'SECCOMP_RET_USER_NOTIF' }, /cannot be the defaultAction/],
    [
      'errno not integer',
      { defaultAction: 'SCMP_ACT_ERRNO', defaultErrnoRet: '1' },
      /defaultErrnoRet must be an integer/,
    ],
    ['syscalls not a list', { defaultAction: 'SCMP_ACT_ALLOW', syscalls: {} }, /syscalls must be a list/],
    [
      'no names',
      { defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ action: 'SCMP_ACT_ERRNO' }] },
      /syscalls\[0\]\.names/,
    ],
    [
      'bad action',
      { defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['a'], action: 'DENY' }] },
      /syscalls\[0\]: unknown action "DENY"/,
    ],
    [
      'bad errnoRet',
      {
        defaultAction: 'SCMP_ACT_ALLOW',
        syscalls: [{ names: ['a'], action: 'SCMP_ACT_ERRNO', errnoRet: 1.5 }],
      },
      /errnoRet must be an integer/,
    ],
  ];
  for (const [name, profile, problem] of cases)
    it(name, () => {
      const found = profileProblem(JSON.stringify(profile));
      if (problem === undefined) assert.equal(found, undefined);
      else assert.match(found ?? '', problem);
    });

  it('text that is not JSON', () => assert.match(profileProblem('{"defaultAction":') ?? '', /^not JSON/));

  it('a Localhost profile is read under <root-dir>/seccomp: missing, invalid, valid, outside', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'pgkube-seccomp-'));
    await mkdir(path.join(root, 'seccomp', 'profiles'), { recursive: true });
    await writeFile(path.join(root, 'seccomp', 'profiles', 'ok.json'), '{"defaultAction":"SCMP_ACT_LOG"}');
    await writeFile(
      path.join(root, 'seccomp', 'profiles', 'bad.json'),
      '{"defaultAction":"SCMP_ACT_NOTIFY"}',
    );
    await writeFile(path.join(root, 'secret.json'), '{"defaultAction":"SCMP_ACT_ALLOW"}');
    assert.equal(await localhostProfileProblem(root, 'profiles/ok.json'), undefined);
    const missing = path.join(root, 'seccomp', 'profiles', 'none.json');
    assert.equal(
      await localhostProfileProblem(root, 'profiles/none.json'),
      `cannot load seccomp profile "${missing}": open ${missing}: no such file or directory`,
    );
    assert.match(
      (await localhostProfileProblem(root, 'profiles/bad.json')) ?? '',
      /SCMP_ACT_NOTIFY cannot be the defaultAction/,
    );
    assert.match((await localhostProfileProblem(root, '../secret.json')) ?? '', /outside/);
  });
});
