/**
 * A container runtime's CRI gRPC server for tests, in-process: node:http2 (h2c) on a unix socket in a temp
 * directory, answering /runtime.v1.RuntimeService/CheckpointContainer as `mode` says: `ok` writes a small file
 * at the request's location (0644, so the agent's narrowing to 0600 shows) and answers with trailers;
 * `unimplemented` answers trailers-only with status 12; `not-found` answers status 5 in trailers. Every request
 * is recorded, decoded.
 */
import { writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Http2Server } from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CHECKPOINT_CONTAINER,
  decodeCheckpointContainerRequest,
  grpcFrame,
  grpcUnframe,
  type CheckpointContainerRequest,
} from '../../modules/checkpoint/index.js';

export type FakeCriMode = 'ok' | 'unimplemented' | 'not-found';

export interface FakeCri {
  /** unix:///... as --container-runtime-endpoint takes it */
  endpoint: string;
  mode: FakeCriMode;
  requests: (CheckpointContainerRequest & { grpcTimeout?: string })[];
  close(): Promise<void>;
}

export async function startFakeCri(): Promise<FakeCri> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fake-cri-'));
  const socket = path.join(dir, 'cri.sock');
  const server: Http2Server = createServer();
  const fake: FakeCri = {
    endpoint: `unix://${socket}`,
    mode: 'ok',
    requests: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      void (async () => {
        const trailersOnly = (status: number, message: string) =>
          stream.respond(
            {
              ':status': 200,
              'content-type': 'application/grpc',
              'grpc-status': String(status),
              'grpc-message': message,
            },
            { endStream: true },
          );
        const body = grpcUnframe(Buffer.concat(chunks));
        if (
          headers[':path'] !== CHECKPOINT_CONTAINER ||
          headers['content-type'] !== 'application/grpc' ||
          !body
        )
          return trailersOnly(12, `unknown method ${String(headers[':path'])}`);
        const request = decodeCheckpointContainerRequest(body);
        fake.requests.push({ ...request, grpcTimeout: headers['grpc-timeout'] as string | undefined });
        if (fake.mode === 'unimplemented')
          return trailersOnly(12, 'method CheckpointContainer not implemented');
        if (fake.mode === 'ok') await writeFile(request.location, 'criu images', { mode: 0o644 });
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () =>
          stream.sendTrailers(
            fake.mode === 'ok'
              ? { 'grpc-status': '0' }
              : { 'grpc-status': '5', 'grpc-message': `container %22${request.containerId}%22 not found` },
          ),
        );
        stream.end(fake.mode === 'ok' ? grpcFrame(new Uint8Array()) : undefined);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return fake;
}
